package exprcalc;

/** Arithmetic expressions over long integers and named variables. */
public sealed interface Expr permits Expr.Num, Expr.Var, Expr.Neg, Expr.Bin {
    record Num(long value) implements Expr {}
    record Var(String name) implements Expr {}
    record Neg(Expr operand) implements Expr {}
    record Bin(char op, Expr left, Expr right) implements Expr {}
}
