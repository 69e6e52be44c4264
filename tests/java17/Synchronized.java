public class Synchronized {
    private int value;

    synchronized void add(int x) {
        value += x;
        if (x < 0) throw new IllegalArgumentException("negative");
    }

    int read() {
        synchronized (this) {
            return value;
        }
    }

    public static void main(String[] args) throws Exception {
        Synchronized s = new Synchronized();
        Thread[] ts = new Thread[4];
        for (int t = 0; t < ts.length; t++) {
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 1000; i++) s.add(1);
            });
            ts[t].start();
        }
        for (Thread t : ts) t.join();
        try {
            s.add(-1);
        } catch (IllegalArgumentException e) {
            System.out.println("caught");
        }
        Object lock = new Object();
        synchronized (lock) {
            System.out.println(s.read());
        }
    }
}
