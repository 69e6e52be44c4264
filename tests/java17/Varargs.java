public class Varargs {
    static int sum(int... xs) {
        int s = 0;
        for (int x : xs) s += x;
        return s;
    }

    static String join(String sep, Object... parts) {
        StringBuilder b = new StringBuilder();
        for (Object p : parts) {
            if (b.length() > 0) b.append(sep);
            b.append(p);
        }
        return b.toString();
    }

    public static void main(String[] args) {
        System.out.println(sum() + " " + sum(1) + " " + sum(1, 2, 3));
        System.out.println(join("-", "a", 1, 'c', 2.5, null));
        System.out.println(String.format("%d %s", 4, "x"));
    }
}
