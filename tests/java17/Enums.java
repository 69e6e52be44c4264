public class Enums {
    enum Op {
        ADD("+") {
            int apply(int a, int b) { return a + b; }
        },
        MUL("*") {
            int apply(int a, int b) { return a * b; }
        };

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        abstract int apply(int a, int b);
    }

    public static void main(String[] args) {
        for (Op op : Op.values()) {
            System.out.println(op + " " + op.symbol + " " + op.apply(6, 7) + " " + op.ordinal());
        }
        System.out.println(Op.valueOf("MUL").apply(2, 3));
    }
}
