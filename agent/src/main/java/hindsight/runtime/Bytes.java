package hindsight.runtime;

import java.nio.charset.StandardCharsets;

/** A growable byte array with the wire format's primitive encodings (used for definitions). */
final class Bytes {
    byte[] buf;
    int len;

    Bytes(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    void u8(int v) {
        ensure(1);
        buf[len++] = (byte) v;
    }

    void u32(int v) {
        ensure(4);
        buf[len++] = (byte) v;
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 24);
    }

    void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    void svarint(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    void str(String s) {
        byte[] b = Buf.utf8(s);
        varint(b.length);
        raw(b, 0, b.length);
    }

    void raw(byte[] b, int off, int n) {
        ensure(n);
        System.arraycopy(b, off, buf, len, n);
        len += n;
    }

    byte[] toArray() {
        return java.util.Arrays.copyOf(buf, len);
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
