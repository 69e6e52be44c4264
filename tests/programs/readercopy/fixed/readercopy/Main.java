package readercopy;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;

/** Copies a text through a Reader read in bulk into a buffer: the JDK writes the buffer. */
public class Main {
    static int twice(int x) {
        return x * 2;
    }

    static int fill(Reader r, char[] buf) throws IOException {
        int total = 0;
        while (total < 4) {
            int n = r.read(buf, total, buf.length - total);
            if (n == -1) {
                break;
            }
            total += n;
        }
        return total;
    }

    static String copy(Reader r) throws IOException {
        char[] buf = new char[32];
        int n = fill(r, buf);
        return new String(buf, 0, n);
    }

    public static void main(String[] args) throws IOException {
        String s = "value=" + twice(3) + ";" + twice(40);
        System.out.println(copy(new StringReader(s)));
    }
}
