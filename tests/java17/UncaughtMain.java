public class UncaughtMain {
    static int[] data = new int[3];

    static int read(int i) {
        return data[i];
    }

    public static void main(String[] args) {
        System.out.println("before");
        System.out.println(read(7));
    }
}
