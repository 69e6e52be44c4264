public class JvmExceptions {
    static int length(String s) {
        return s.length();
    }

    static int at(int[] a, int i) {
        return a[i];
    }

    static int div(int a, int b) {
        return a / b;
    }

    public static void main(String[] args) {
        try {
            length(null);
        } catch (NullPointerException e) {
            System.out.println("NPE");
        }
        try {
            at(new int[2], 5);
        } catch (ArrayIndexOutOfBoundsException e) {
            System.out.println("AIOOBE " + e.getMessage());
        }
        try {
            div(1, 0);
        } catch (ArithmeticException e) {
            System.out.println("AE " + e.getMessage());
        }
        try {
            Object o = "s";
            Integer i = (Integer) o;
            System.out.println(i);
        } catch (ClassCastException e) {
            System.out.println("CCE");
        }
    }
}
