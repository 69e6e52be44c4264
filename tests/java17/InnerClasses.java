import java.util.Iterator;

public class InnerClasses {
    private int counter = 100;

    class Inner {
        final int v;

        Inner(int v) {
            this.v = v + counter;
        }

        int get() {
            return v + counter++;
        }
    }

    static class Nested {
        String s = "nested";
    }

    Iterator<Integer> countdown(int from) {
        return new Iterator<>() {
            int n = from;

            public boolean hasNext() {
                return n > 0;
            }

            public Integer next() {
                return n--;
            }
        };
    }

    public static void main(String[] args) {
        InnerClasses o = new InnerClasses();
        Inner i = o.new Inner(1);
        System.out.println(i.get() + " " + i.get() + " " + new Nested().s);
        Iterator<Integer> it = o.countdown(3);
        while (it.hasNext()) System.out.print(it.next());
        System.out.println();
        class Local {
            int twice(int x) { return 2 * x; }
        }
        System.out.println(new Local().twice(21));
    }
}
