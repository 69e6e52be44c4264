import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

public class Threads {
    static int work(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) s += i % 7;
        return s;
    }

    public static void main(String[] args) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        Future<?>[] fs = new Future<?>[8];
        AtomicInteger total = new AtomicInteger();
        for (int t = 0; t < 8; t++) {
            final int n = 1000 * (t + 1);
            fs[t] = pool.submit(() -> total.addAndGet(work(n)));
        }
        for (Future<?> f : fs) f.get();
        pool.shutdown();
        Thread th = new Thread(() -> { throw new IllegalStateException("thread dies"); }, "dying");
        th.setUncaughtExceptionHandler((t, e) -> System.out.println("uncaught in " + t.getName() + ": " + e.getMessage()));
        th.start();
        th.join();
        System.out.println(total.get());
    }
}
