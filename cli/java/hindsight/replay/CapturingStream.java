package hindsight.replay;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Stands for {@code System.out} and {@code System.err}: writes nothing and records each output
 * call the program makes ({@link Capture}). Every output method is overridden and none calls
 * another, so one call of the program is recorded once, with the method it called.
 * The overridden methods are all the print, println, printf, format, write, writeBytes and
 * append methods of JDK 17's PrintStream.
 */
final class CapturingStream extends PrintStream {
    private static final Capture.Method WRITE_INT = Capture.Method.of("write(I)V");
    private static final Capture.Method WRITE_BYTES_INT_INT = Capture.Method.of("write([BII)V");
    private static final Capture.Method WRITE_BYTES = Capture.Method.of("write([B)V");
    private static final Capture.Method WRITEBYTES_BYTES = Capture.Method.of("writeBytes([B)V");
    private static final Capture.Method PRINT_BOOLEAN = Capture.Method.of("print(Z)V");
    private static final Capture.Method PRINT_CHAR = Capture.Method.of("print(C)V");
    private static final Capture.Method PRINT_INT = Capture.Method.of("print(I)V");
    private static final Capture.Method PRINT_LONG = Capture.Method.of("print(J)V");
    private static final Capture.Method PRINT_FLOAT = Capture.Method.of("print(F)V");
    private static final Capture.Method PRINT_DOUBLE = Capture.Method.of("print(D)V");
    private static final Capture.Method PRINT_CHARS = Capture.Method.of("print([C)V");
    private static final Capture.Method PRINT_STRING =
            Capture.Method.of("print(Ljava/lang/String;)V");
    private static final Capture.Method PRINT_OBJECT =
            Capture.Method.of("print(Ljava/lang/Object;)V");
    private static final Capture.Method PRINTLN = Capture.Method.of("println()V");
    private static final Capture.Method PRINTLN_BOOLEAN = Capture.Method.of("println(Z)V");
    private static final Capture.Method PRINTLN_CHAR = Capture.Method.of("println(C)V");
    private static final Capture.Method PRINTLN_INT = Capture.Method.of("println(I)V");
    private static final Capture.Method PRINTLN_LONG = Capture.Method.of("println(J)V");
    private static final Capture.Method PRINTLN_FLOAT = Capture.Method.of("println(F)V");
    private static final Capture.Method PRINTLN_DOUBLE = Capture.Method.of("println(D)V");
    private static final Capture.Method PRINTLN_CHARS = Capture.Method.of("println([C)V");
    private static final Capture.Method PRINTLN_STRING =
            Capture.Method.of("println(Ljava/lang/String;)V");
    private static final Capture.Method PRINTLN_OBJECT =
            Capture.Method.of("println(Ljava/lang/Object;)V");
    private static final Capture.Method PRINTF_STRING_OBJECTS =
            Capture.Method.of("printf(Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;");
    private static final Capture.Method PRINTF_LOCALE_STRING_OBJECTS =
            Capture.Method.of("printf(Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;");
    private static final Capture.Method FORMAT_STRING_OBJECTS =
            Capture.Method.of("format(Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;");
    private static final Capture.Method FORMAT_LOCALE_STRING_OBJECTS =
            Capture.Method.of("format(Ljava/util/Locale;Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;");
    private static final Capture.Method APPEND_CHARSEQUENCE =
            Capture.Method.of("append(Ljava/lang/CharSequence;)Ljava/io/PrintStream;");
    private static final Capture.Method APPEND_CHARSEQUENCE_INT_INT =
            Capture.Method.of("append(Ljava/lang/CharSequence;II)Ljava/io/PrintStream;");
    private static final Capture.Method APPEND_CHAR =
            Capture.Method.of("append(C)Ljava/io/PrintStream;");

    CapturingStream() {
        super(OutputStream.nullOutputStream());
    }

    @Override
    public void flush() {
        // nothing is written
    }

    @Override
    public void close() {
        // stays usable: the program may close System.out and the next call print again
    }

    @Override
    public void write(int b) {
        Capture.record(WRITE_INT, b);
    }

    @Override
    public void write(byte[] buf, int off, int len) {
        Capture.record(WRITE_BYTES_INT_INT, buf, off, len);
    }

    @Override
    public void write(byte[] buf) {
        Capture.record(WRITE_BYTES, new Object[] {buf});
    }

    @Override
    public void writeBytes(byte[] buf) {
        Capture.record(WRITEBYTES_BYTES, new Object[] {buf});
    }

    @Override
    public void print(boolean x) {
        Capture.record(PRINT_BOOLEAN, x);
    }

    @Override
    public void print(char x) {
        Capture.record(PRINT_CHAR, x);
    }

    @Override
    public void print(int x) {
        Capture.record(PRINT_INT, x);
    }

    @Override
    public void print(long x) {
        Capture.record(PRINT_LONG, x);
    }

    @Override
    public void print(float x) {
        Capture.record(PRINT_FLOAT, x);
    }

    @Override
    public void print(double x) {
        Capture.record(PRINT_DOUBLE, x);
    }

    @Override
    public void print(char[] x) {
        Capture.record(PRINT_CHARS, new Object[] {x});
    }

    @Override
    public void print(String x) {
        Capture.record(PRINT_STRING, x);
    }

    @Override
    public void print(Object x) {
        Capture.record(PRINT_OBJECT, new Object[] {x});
    }

    @Override
    public void println() {
        Capture.record(PRINTLN);
    }

    @Override
    public void println(boolean x) {
        Capture.record(PRINTLN_BOOLEAN, x);
    }

    @Override
    public void println(char x) {
        Capture.record(PRINTLN_CHAR, x);
    }

    @Override
    public void println(int x) {
        Capture.record(PRINTLN_INT, x);
    }

    @Override
    public void println(long x) {
        Capture.record(PRINTLN_LONG, x);
    }

    @Override
    public void println(float x) {
        Capture.record(PRINTLN_FLOAT, x);
    }

    @Override
    public void println(double x) {
        Capture.record(PRINTLN_DOUBLE, x);
    }

    @Override
    public void println(char[] x) {
        Capture.record(PRINTLN_CHARS, new Object[] {x});
    }

    @Override
    public void println(String x) {
        Capture.record(PRINTLN_STRING, x);
    }

    @Override
    public void println(Object x) {
        Capture.record(PRINTLN_OBJECT, new Object[] {x});
    }

    @Override
    public PrintStream printf(String format, Object... args) {
        Capture.record(PRINTF_STRING_OBJECTS, format, args);
        return this;
    }

    @Override
    public PrintStream printf(Locale l, String format, Object... args) {
        Capture.record(PRINTF_LOCALE_STRING_OBJECTS, l, format, args);
        return this;
    }

    @Override
    public PrintStream format(String format, Object... args) {
        Capture.record(FORMAT_STRING_OBJECTS, format, args);
        return this;
    }

    @Override
    public PrintStream format(Locale l, String format, Object... args) {
        Capture.record(FORMAT_LOCALE_STRING_OBJECTS, l, format, args);
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq) {
        Capture.record(APPEND_CHARSEQUENCE, csq);
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq, int start, int end) {
        Capture.record(APPEND_CHARSEQUENCE_INT_INT, csq, start, end);
        return this;
    }

    @Override
    public PrintStream append(char c) {
        Capture.record(APPEND_CHAR, c);
        return this;
    }
}
