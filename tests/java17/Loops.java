import java.util.List;

/**
 * Loops of every shape javac compiles: for, while, do-while, nested, for-each over an array and
 * a list, break, continue, return and exceptions inside the body, and a loop that never runs.
 * cli/tests/loops.rs checks the loop and iteration nodes Hindsight makes of each (the counts in
 * the comments).
 */
public class Loops {
    // 1 loop, 4 iterations: three passes and the test that ends it.
    static int forLoop(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    // whileLoop(6): 8 passes (6 3 10 5 16 8 4 2) and the final test: 9 iterations.
    static int whileLoop(int n) {
        int k = 0;
        while (n > 1) {
            n = n % 2 == 0 ? n / 2 : 3 * n + 1;
            k++;
        }
        return k;
    }

    // doWhile(123): the test ends each pass, 3 iterations.
    static int doWhile(int n) {
        int d = 0;
        do {
            d++;
            n /= 10;
        } while (n != 0);
        return d;
    }

    // nested(3): the outer loop 4 iterations; the inner loop, which calls nothing, is a node when
    // its body runs (i = 1: 2 iterations, i = 2: 3), not when its test fails at once (i = 0).
    static int nested(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                c += j;
            }
        }
        return c;
    }

    // breakContinue({1, -1, 2, 200, 3}): 4 iterations, the fourth breaks.
    static int breakContinue(int[] a) {
        int s = 0;
        for (int x : a) {
            if (x < 0) {
                continue;
            }
            if (x > 100) {
                break;
            }
            s += x;
        }
        return s;
    }

    // returnInside({5, 7, 9}, 7): 2 iterations, the second returns.
    // returnInside({5, 7, 9}, 9): 3 iterations, the third returns.
    static int returnInside(int[] a, int key) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == key) {
                return i;
            }
        }
        return -1;
    }

    // catchInside({"1", "x", "3"}): 4 iterations, each parseInt below its iteration.
    static int catchInside(String[] xs) {
        int s = 0;
        for (String x : xs) {
            try {
                s += Integer.parseInt(x);
            } catch (NumberFormatException e) {
                s -= 1;
            }
        }
        return s;
    }

    // throwsOut({1, -2}): 2 iterations, the second ends by the exception check throws.
    static int throwsOut(int[] a) {
        int s = 0;
        for (int x : a) {
            s += check(x);
        }
        return s;
    }

    static int check(int x) {
        if (x < 0) {
            throw new IllegalArgumentException("negative");
        }
        return x;
    }

    // overList([1, 2]): 3 iterations, each with its hasNext (the last one's returns false).
    static int overList(List<Integer> xs) {
        int s = 0;
        for (int x : xs) {
            s += twice(x);
        }
        return s;
    }

    static int twice(int x) {
        return 2 * x;
    }

    // never(0): the test fails at once and calls nothing: no loop node.
    static int never(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    public static void main(String[] args) {
        System.out.println(forLoop(new int[] {1, 2, 3}));
        System.out.println(whileLoop(6));
        System.out.println(doWhile(123));
        System.out.println(nested(3));
        System.out.println(breakContinue(new int[] {1, -1, 2, 200, 3}));
        System.out.println(returnInside(new int[] {5, 7, 9}, 7));
        System.out.println(returnInside(new int[] {5, 7, 9}, 9));
        System.out.println(catchInside(new String[] {"1", "x", "3"}));
        try {
            System.out.println(throwsOut(new int[] {1, -2}));
        } catch (IllegalArgumentException e) {
            System.out.println("caught " + e.getMessage());
        }
        System.out.println(overList(List.of(1, 2)));
        System.out.println(never(0));
    }
}
