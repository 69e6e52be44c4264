public class TryFinally {
    static int count;

    static int f(int x) {
        try {
            if (x == 0) throw new IllegalStateException("zero");
            return 10 / x;
        } catch (IllegalStateException e) {
            return -1;
        } finally {
            count++;
        }
    }

    static void nested() throws Exception {
        try {
            try {
                throw new Exception("inner");
            } finally {
                count += 10;
            }
        } catch (Exception e) {
            throw new Exception("outer: " + e.getMessage());
        }
    }

    public static void main(String[] args) {
        System.out.println(f(5) + " " + f(0) + " " + count);
        try {
            nested();
        } catch (Exception e) {
            System.out.println(e.getMessage() + " " + count);
        }
        try (AutoCloseable c = () -> System.out.println("closed")) {
            System.out.println("body");
        } catch (Exception e) {
            System.out.println("no");
        }
    }
}
