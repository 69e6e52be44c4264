package exprcalc;

import java.util.ArrayList;
import java.util.List;

/** Recursive descent: expr = term {+|- term}; term = factor {*|/|% factor}; factor = num | name | -factor | (expr). */
public class Parser {
    private final List<String> tokens;
    private int pos;

    Parser(String text) {
        this.tokens = tokenize(text);
    }

    static List<String> tokenize(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (Character.isLetterOrDigit(c)) {
                int start = i;
                while (i < text.length() && Character.isLetterOrDigit(text.charAt(i))) {
                    i++;
                }
                out.add(text.substring(start, i));
            } else {
                out.add(String.valueOf(c));
                i++;
            }
        }
        return out;
    }

    private String peek() {
        return pos < tokens.size() ? tokens.get(pos) : "";
    }

    private String next() {
        return tokens.get(pos++);
    }

    Expr parse() {
        Expr e = expr();
        if (pos != tokens.size()) {
            throw new IllegalArgumentException("unexpected " + peek());
        }
        return e;
    }

    private Expr expr() {
        Expr left = term();
        while (peek().equals("+") || peek().equals("-")) {
            char op = next().charAt(0);
            left = new Expr.Bin(op, left, term());
        }
        return left;
    }

    private Expr term() {
        Expr left = factor();
        while (peek().equals("*") || peek().equals("/") || peek().equals("%")) {
            char op = next().charAt(0);
            left = new Expr.Bin(op, left, factor());
        }
        return left;
    }

    private Expr factor() {
        String t = next();
        if (t.equals("-")) {
            return new Expr.Neg(factor());
        }
        if (t.equals("(")) {
            Expr inner = expr();
            next();
            return inner;
        }
        if (Character.isDigit(t.charAt(0))) {
            return new Expr.Num(Long.parseLong(t));
        }
        return new Expr.Var(t);
    }
}
