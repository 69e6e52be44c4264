public class Records {
    record Point(int x, int y) {
        Point {
            if (x < 0) throw new IllegalArgumentException("negative x");
        }

        int sum() {
            return x + y;
        }
    }

    record Named(String name, Point p) {}

    public static void main(String[] args) {
        Point p = new Point(1, 2);
        Named n = new Named("origin", p);
        System.out.println(p + " " + n + " " + p.sum() + " " + p.equals(new Point(1, 2)) + " " + (p.hashCode() == new Point(1, 2).hashCode()));
        try {
            new Point(-1, 0);
        } catch (IllegalArgumentException e) {
            System.out.println("caught " + e.getMessage());
        }
    }
}
