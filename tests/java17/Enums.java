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

    public static void main(String[] args) throws Exception {
        for (Op op : Op.values()) {
            System.out.println(op + " " + op.symbol + " " + op.apply(6, 7) + " " + op.ordinal());
        }
        System.out.println(Op.valueOf("MUL").apply(2, 3));
        System.out.println(scale(java.math.RoundingMode.HALF_UP));
        System.out.println(constants(Op.class));
        System.out.println(members());
    }

    /** A method and a constructor, first seen as the JDK's answers. */
    static String members() throws Exception {
        return Enums.class.getDeclaredMethod("scale", java.math.RoundingMode.class).getName()
                + " " + Enums.class.getDeclaredConstructor().getParameterCount();
    }

    /** A class object, first seen as an argument. */
    static int constants(Class<?> c) {
        return c.getEnumConstants().length;
    }

    /** A JDK enum, first seen as an argument. */
    static String scale(java.math.RoundingMode mode) {
        return new java.math.BigDecimal("2.5").setScale(0, mode).toString();
    }
}
