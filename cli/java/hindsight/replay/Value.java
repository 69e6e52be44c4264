package hindsight.replay;

/**
 * One value token of a request, parsed but not yet bound to an object: {@code plain} is the
 * boxed primitive ({@link Kind#PRIMITIVE}, {@link Kind#BOXED}) or the string ({@link
 * Kind#STRING}); {@code ref} the object number ({@link Kind#REF}).
 */
record Value(Kind kind, Object plain, int ref) {
    enum Kind {
        VOID,
        NULL,
        PRIMITIVE,
        BOXED,
        STRING,
        REF
    }

    static final Value VOID = new Value(Kind.VOID, null, 0);
    static final Value NULL = new Value(Kind.NULL, null, 0);
}
