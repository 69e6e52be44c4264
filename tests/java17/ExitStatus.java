public class ExitStatus {
    static void finish(int code) {
        System.out.println("exiting with " + code);
        System.exit(code);
    }

    public static void main(String[] args) {
        finish(3);
    }
}
