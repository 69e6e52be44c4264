package live;

/**
 * A program that runs for a few seconds (a step every 100 ms) so that a live session can ask
 * while it runs, and a crash test can kill it (or its recorder) mid-run. cube is wrong: it
 * returns x*x*x+1.
 */
public class Steps {
    static int square(int x) {
        return x * x;
    }

    static int cube(int x) {
        return x * x * x + 1;
    }

    static int step(int i) {
        return square(i) + cube(i);
    }

    public static void main(String[] args) throws InterruptedException {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        System.out.println("pid " + ProcessHandle.current().pid());
        for (int i = 0; i < n; i++) {
            System.out.println("step " + i + " " + step(i));
            Thread.sleep(100);
        }
        System.out.println("done");
    }
}
