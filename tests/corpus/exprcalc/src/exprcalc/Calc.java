package exprcalc;

import java.util.Map;
import java.util.TreeMap;

/** Evaluates, simplifies and prints expressions; runs a small script of assignments. */
public class Calc {
    private final Map<String, Long> vars = new TreeMap<>();
    long eval(Expr e) {
        if (e instanceof Expr.Num n) {
            return n.value();
        }
        if (e instanceof Expr.Var v) {
            Long value = vars.get(v.name());
            if (value == null) {
                throw new IllegalStateException("unknown variable " + v.name());
            }
            return value;
        }
        if (e instanceof Expr.Neg n) {
            return -eval(n.operand());
        }
        Expr.Bin b = (Expr.Bin) e;
        return apply(b.op(), eval(b.left()), eval(b.right()));
    }

    static long apply(char op, long x, long y) {
        return switch (op) {
            case '+' -> x + y;
            case '-' -> x - y;
            case '*' -> x * y;
            case '/' -> x / y;
            case '%' -> x % y;
            default -> throw new IllegalArgumentException("operator " + op);
        };
    }

    /** Folds constant subexpressions and removes x*1, x+0 and 0*x. */
    static Expr simplify(Expr e) {
        if (e instanceof Expr.Neg n) {
            Expr inner = simplify(n.operand());
            return inner instanceof Expr.Num k ? new Expr.Num(-k.value()) : new Expr.Neg(inner);
        }
        if (!(e instanceof Expr.Bin b)) {
            return e;
        }
        Expr l = simplify(b.left());
        Expr r = simplify(b.right());
        if (l instanceof Expr.Num x && r instanceof Expr.Num y) {
            return new Expr.Num(apply(b.op(), x.value(), y.value()));
        }
        if (b.op() == '*' && (isConst(l, 0) || isConst(r, 0))) {
            return new Expr.Num(0);
        }
        if (b.op() == '*' && isConst(r, 1) || (b.op() == '+' || b.op() == '-') && isConst(r, 0)) {
            return l;
        }
        if ((b.op() == '*' && isConst(l, 1)) || (b.op() == '+' && isConst(l, 0))) {
            return r;
        }
        return new Expr.Bin(b.op(), l, r);
    }

    static boolean isConst(Expr e, long value) {
        return e instanceof Expr.Num n && n.value() == value;
    }

    static String show(Expr e) {
        if (e instanceof Expr.Num n) {
            return Long.toString(n.value());
        }
        if (e instanceof Expr.Var v) {
            return v.name();
        }
        if (e instanceof Expr.Neg n) {
            return "-" + show(n.operand());
        }
        Expr.Bin b = (Expr.Bin) e;
        return "(" + show(b.left()) + " " + b.op() + " " + show(b.right()) + ")";
    }

    void run(String script) {
        for (String line : script.strip().split("\n")) {
            int eq = line.indexOf('=');
            String name = line.substring(0, eq).strip();
            Expr e = simplify(new Parser(line.substring(eq + 1)).parse());
            long value = eval(e);
            vars.put(name, value);
            System.out.println(name + " = " + show(e) + " = " + value);
        }
        System.out.println(vars);
    }

    public static void main(String[] args) {
        new Calc().run("""
            width = 12
            height = 7 - 2 * (3 - 4)
            area = width * height * 1
            border = 2 * (width + height) + 0
            tiles = (area + 3) / 4
            waste = tiles * 4 - area
            offset = -(width % 5) + 0 * height
            score = -(-area) + border * (2 + 3) % 7 - offset
            """);
    }
}
