package omni;

/** An exception thrown by one call and caught by its caller, and one of the program's own. */
public class Exceptions {
    static int check(int x) {
        if (x < 0)
            throw new IllegalArgumentException("negative");
        return x;
    }

    static int safe(int x) {
        try {
            return check(x);
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    public static void main(String[] args) {
        System.out.println(safe(-1) + safe(2) + refuse(7));
    }

    /** The program's own exception: its fields are recorded, so it shows by its content. */
    static class Refused extends RuntimeException {
        final int code;

        Refused(int code) {
            this.code = code;
        }
    }

    static int refuse(int code) {
        try {
            throw new Refused(code);
        } catch (Refused r) {
            return r.code;
        }
    }
}
