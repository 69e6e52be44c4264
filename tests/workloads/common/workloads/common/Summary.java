package workloads.common;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The deterministic result of a workload: named counts and a CRC-32 of what it produced, printed
 * as one line so that a recorded run can be compared with a plain one.
 */
public final class Summary {
    private final String workload;
    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final CRC32 crc = new CRC32();

    public Summary(String workload, int size) {
        this.workload = workload;
        add("size", size);
    }

    /** Adds {@code n} to the count called {@code name}; counts print in first-use order. */
    public void add(String name, long n) {
        counts.merge(name, n, Long::sum);
    }

    /** Folds a string into the checksum. */
    public void digest(CharSequence text) {
        crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
        crc.update(0);
    }

    /** Folds a number into the checksum. */
    public void digest(long value) {
        for (int shift = 0; shift < 64; shift += 8) {
            crc.update((int) (value >>> shift));
        }
    }

    /** The byte array form of {@link #digest(CharSequence)}. */
    public void digest(byte[] bytes) {
        crc.update(bytes);
        crc.update(0);
    }

    /** The result: workload name, the counts (those ever added to) and the checksum, in one line. */
    public String line() {
        StringBuilder out = new StringBuilder(workload);
        counts.forEach((name, n) -> out.append(' ').append(name).append('=').append(n));
        return out.append(String.format(" checksum=%08x", crc.getValue())).toString();
    }
}
