package replaydemo;

/** A program exception with a field of its own. */
public class AppException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int code;

    public AppException(int code) {
        super("code " + code);
        this.code = code;
    }
}
