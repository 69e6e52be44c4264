/** Blocks in the JDK (reading stdin) after a completed call. */
public class LiveBlocked {
    static int first(int x) {
        return x * 2;
    }

    public static void main(String[] args) throws Exception {
        System.out.println(first(21));
        int c = System.in.read();
        System.out.println("read " + (char) c);
    }
}
