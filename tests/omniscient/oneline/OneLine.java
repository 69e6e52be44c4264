/** A loop written on one line: javac gives it one line entry (cli/tests/omniscient.rs). */
public class OneLine {
    static int[] squares(int n, int offset) {
        int[] d = new int[n];
        for (int i = 0; i < n; i++) d[i] = i * i + offset;
        return d;
    }

    public static void main(String[] args) {
        System.out.println(squares(5, 100)[3]);
    }
}
