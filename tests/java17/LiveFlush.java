import java.nio.file.Files;
import java.nio.file.Path;

/** Keeps running (inside main) until the file named by its argument exists. */
public class LiveFlush {
    static int first(int x) {
        return x * 2;
    }

    static long tick(long n) {
        return n + 1;
    }

    public static void main(String[] args) {
        System.out.println(first(21));
        Path go = Path.of(args[0]);
        long n = 0;
        long guard = System.currentTimeMillis() + 120_000;
        while (!Files.exists(go) && System.currentTimeMillis() < guard) {
            n = tick(n);
        }
        System.out.println(Files.exists(go) ? "released" : "never released");
    }
}
