package omni;

/** An exception thrown by one call and caught by its caller. */
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
        System.out.println(safe(-1) + safe(2));
    }
}
