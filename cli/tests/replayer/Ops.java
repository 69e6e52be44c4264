package replaydemo;

import java.util.ArrayList;
import java.util.Map;

/** Static methods exercising the replayer: mutation, output, exceptions, a loop. */
public class Ops {
    /** A nested class: its name is replaydemo.Ops$Pair. */
    static class Pair {
        Object left;
        Object right;
    }

    /** An enum whose second constant has a body (class replaydemo.Ops$Level$1). */
    enum Level {
        LOW,
        HIGH {
            @Override
            public String toString() {
                return "high";
            }
        };
    }

    static String named(Class<?> c, java.lang.reflect.Field f) {
        return c.getSimpleName() + "." + f.getName();
    }

    static String executable(java.lang.reflect.Executable e) {
        return e.getName() + "/" + e.getParameterCount();
    }

    static Level other(Level l) {
        return l == Level.LOW ? Level.HIGH : Level.LOW;
    }

    static int fill(int[] a, ArrayList<Integer> list, StringBuilder sb) {
        for (int i = 0; i < a.length; i++) {
            a[i] *= 2;
        }
        list.add(a.length);
        sb.append('x');
        return a.length;
    }

    static void report(Node n, int k) {
        System.out.println("node " + n.value);
        System.out.printf("%d items%n", k);
        System.err.println(n);
        n.value = 99;
        System.out.print('c');
    }

    static int fail(int x) {
        throw new IllegalStateException("bad " + x);
    }

    static void failWith(int code) {
        throw new AppException(code);
    }

    static void spin() {
        while (true) {
            Thread.onSpinWait();
        }
    }

    static int size(Map<String, Integer> m) {
        return m.size();
    }

    static double half(long x, char c, float f) {
        return (x + c + f) / 2.0;
    }

    static Pair swap(Pair p) {
        Object t = p.left;
        p.left = p.right;
        p.right = t;
        return p;
    }
}
