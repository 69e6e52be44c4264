import java.util.HashMap;
import java.util.Map;

public class StaticInit {
    static final Map<String, Integer> TABLE = new HashMap<>();
    static int[] squares = new int[5];
    static final String GREETING;

    static {
        for (int i = 0; i < squares.length; i++) squares[i] = i * i;
        TABLE.put("four", squares[2]);
        GREETING = "hello " + TABLE.get("four");
    }

    static class Lazy {
        static long created = System.nanoTime() > 0 ? 1L : 0L;
    }

    public static void main(String[] args) {
        System.out.println(GREETING + " " + squares[4] + " " + Lazy.created);
    }
}
