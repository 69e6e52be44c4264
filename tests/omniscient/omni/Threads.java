package omni;

/** N worker threads, each counting to 50 in its own slot of a shared array. */
public class Threads {
    static int[] slots;

    static class Worker implements Runnable {
        final int id;
        int count;

        Worker(int id) {
            this.id = id;
        }

        public void run() {
            for (int i = 0; i < 50; i++) {
                count++;
                slots[id] = count;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        slots = new int[n];
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            threads[i] = new Thread(new Worker(i), "worker-" + i);
            threads[i].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        int total = 0;
        for (int v : slots) {
            total += v;
        }
        System.out.println(total);
    }
}
