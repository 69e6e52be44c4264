package hindsight.replay;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** The value tokens of the protocol: parsing them and writing them. */
final class Tokens {
    private static final HexFormat HEX = HexFormat.of();

    private Tokens() {}

    /** Parses one token; the message names what is wrong with it. */
    static Value parse(String token) throws Failure {
        if (token.isEmpty()) {
            throw new Failure("empty value token (two spaces in a row?)");
        }
        switch (token.charAt(0)) {
            case 'V':
                if (token.length() == 1) {
                    return Value.VOID;
                }
                break;
            case 'N':
                if (token.length() == 1) {
                    return Value.NULL;
                }
                break;
            case '@':
                return new Value(Value.Kind.REF, null, number(token.substring(1), token));
            case 'T':
                return new Value(Value.Kind.STRING, string(token.substring(1), token), 0);
            case 'b':
                return new Value(Value.Kind.BOXED, primitive(token.substring(1), token), 0);
            default:
                return new Value(Value.Kind.PRIMITIVE, primitive(token, token), 0);
        }
        throw new Failure("bad value token '" + token + "'");
    }

    /** An object number: a non-negative decimal int. */
    static int number(String digits, String token) throws Failure {
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new Failure("bad object number in '" + token + "'");
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new Failure("object number too large in '" + token + "'");
        }
    }

    private static Object primitive(String s, String token) throws Failure {
        if (s.length() < 2) {
            throw new Failure("bad value token '" + token + "'");
        }
        String body = s.substring(1);
        try {
            switch (s.charAt(0)) {
                case 'Z':
                    if (body.equals("0") || body.equals("1")) {
                        return body.equals("1");
                    }
                    break;
                case 'C':
                    int unit = Integer.parseInt(body);
                    if (unit >= 0 && unit <= Character.MAX_VALUE) {
                        return (char) unit;
                    }
                    break;
                case 'B':
                    return Byte.parseByte(body);
                case 'S':
                    return Short.parseShort(body);
                case 'I':
                    return Integer.parseInt(body);
                case 'J':
                    return Long.parseLong(body);
                case 'F':
                    if (body.length() <= 8 && isHex(body)) {
                        return Float.intBitsToFloat(Integer.parseUnsignedInt(body, 16));
                    }
                    break;
                case 'D':
                    if (body.length() <= 16 && isHex(body)) {
                        return Double.longBitsToDouble(Long.parseUnsignedLong(body, 16));
                    }
                    break;
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            // falls through to the common message
        }
        throw new Failure("bad value token '" + token + "'");
    }

    private static boolean isHex(String s) {
        return s.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }

    private static String string(String hex, String token) throws Failure {
        if (hex.length() % 2 != 0 || !isHex(hex)) {
            throw new Failure("bad string token '" + abbreviate(token) + "': not lower-case hex bytes");
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(HEX.parseHex(hex)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new Failure("bad string token '" + abbreviate(token) + "': not UTF-8");
        }
    }

    /** The token of a primitive value, given boxed. */
    static String primitive(Object boxed) {
        if (boxed instanceof Boolean b) {
            return b ? "Z1" : "Z0";
        } else if (boxed instanceof Character c) {
            return "C" + (int) c;
        } else if (boxed instanceof Byte b) {
            return "B" + b;
        } else if (boxed instanceof Short s) {
            return "S" + s;
        } else if (boxed instanceof Integer i) {
            return "I" + i;
        } else if (boxed instanceof Long l) {
            return "J" + l;
        } else if (boxed instanceof Float f) {
            return "F" + Integer.toHexString(Float.floatToRawIntBits(f));
        } else if (boxed instanceof Double d) {
            return "D" + Long.toHexString(Double.doubleToRawLongBits(d));
        }
        throw new IllegalArgumentException("not a boxed primitive: " + boxed.getClass());
    }

    /** Whether {@code c} is one of the eight boxes, written inline as {@code b...}. */
    static boolean isBox(Class<?> c) {
        return c == Boolean.class || c == Character.class || c == Byte.class || c == Short.class
                || c == Integer.class || c == Long.class || c == Float.class || c == Double.class;
    }

    static String string(String s) {
        return "T" + HEX.formatHex(s.getBytes(StandardCharsets.UTF_8));
    }

    /** At most 60 characters of {@code s}, for messages. */
    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
