package hindsight.replay;

/** Why a request cannot be replayed: answered as {@code FAIL REASON}. */
final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String reason) {
        super(reason, null, false, false);
    }

    /** A failure located on line {@code line} of the replayer's input. */
    static Failure at(int line, String reason) {
        return new Failure("line " + line + ": " + reason);
    }
}
