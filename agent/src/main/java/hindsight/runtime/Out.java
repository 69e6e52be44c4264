package hindsight.runtime;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The stream to the recorder. Every frame is written under {@link #LOCK}; pending definitions
 * are written before each EVENTS frame, under the same lock, so no EVENTS frame can use an id
 * whose definition has not been sent.
 */
final class Out {
    static final Object LOCK = new Object();
    /** The wire format's version (docs/wire-format.md), after the magic. */
    static final int VERSION = 3;
    /** Frame types. */
    static final int HELLO = 1, CLASS = 2, METHOD = 3, FIELD = 4, THREAD = 5, EVENTS = 6, END = 7,
            WARNING = 8;

    /** Serialised frames (byte[]) or class definitions (Defs.ClassDef) waiting to be written. */
    static final ConcurrentLinkedQueue<Object> PENDING = new ConcurrentLinkedQueue<>();

    private static OutputStream os;
    /** Set when the recorder went away or the stream was closed: data is dropped from then on. */
    static volatile boolean dead;

    private Out() {}

    static void open(Options o) throws IOException {
        OutputStream raw;
        if (o.socket != null) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.connect(UnixDomainSocketAddress.of(o.socket));
            raw = Channels.newOutputStream(ch);
        } else {
            raw = new FileOutputStream(o.file);
        }
        os = new BufferedOutputStream(raw, 1 << 16);
        os.write(new byte[] {'H', 'S', 'W', 'I', 'R', 'E', (byte) VERSION, (byte) (VERSION >> 8)});
    }

    /** A frame's bytes: length, type, payload. */
    static byte[] frame(int type, Bytes payload) {
        Bytes f = new Bytes(payload.len + 5);
        f.u32(payload.len + 1);
        f.u8(type);
        f.raw(payload.buf, 0, payload.len);
        return f.toArray();
    }

    /** Writes a complete frame now (with pending definitions first). */
    static void write(byte[] frame) {
        synchronized (LOCK) {
            if (dead) {
                return;
            }
            try {
                drainPending();
                os.write(frame);
                os.flush();
            } catch (IOException e) {
                fail(e);
            }
        }
    }

    /** Writes the EVENTS frame of a buffer and empties it; caller holds LOCK. */
    static void events(int thread, long baseTs, int count, byte[] events, int len) {
        if (dead) {
            return;
        }
        try {
            drainPending();
            Bytes h = new Bytes(32);
            h.varint(thread);
            h.varint(baseTs);
            h.varint(count);
            Bytes f = new Bytes(8);
            f.u32(1 + h.len + len);
            f.u8(EVENTS);
            os.write(f.buf, 0, f.len);
            os.write(h.buf, 0, h.len);
            os.write(events, 0, len);
            os.flush();
        } catch (IOException e) {
            fail(e);
        }
    }

    private static void drainPending() throws IOException {
        Object p;
        while ((p = PENDING.poll()) != null) {
            os.write(p instanceof byte[] ? (byte[]) p : ((Defs.ClassDef) p).frame());
        }
    }

    /** Writes END and closes the stream; later writes are dropped. */
    static void end(int status) {
        synchronized (LOCK) {
            if (dead) {
                return;
            }
            try {
                drainPending();
                Bytes b = new Bytes(12);
                b.svarint(status);
                os.write(frame(END, b));
                os.close();
            } catch (IOException e) {
                fail(e);
            }
            dead = true;
        }
    }

    private static void fail(IOException e) {
        dead = true;
        System.err.println("hindsight: the recorder stream failed (" + e.getMessage()
                + "); recording stopped, the program continues");
    }
}
