package diskusage;

import java.util.ArrayList;
import java.util.List;

/** Disk space taken by groups of equally sized files, in bytes and in MiB. */
public class DiskUsage {
    static final class Group {
        final String name;
        final int fileSize;
        final int fileCount;

        Group(String name, int fileSize, int fileCount) {
            this.name = name;
            this.fileSize = fileSize;
            this.fileCount = fileCount;
        }
    }

    private final List<Group> groups = new ArrayList<>();

    void add(String name, int fileSize, int fileCount) {
        groups.add(new Group(name, fileSize, fileCount));
    }

    static long bytes(Group g) {
        return (long) g.fileSize * g.fileCount;
    }

    static String mib(long bytes) {
        return (bytes / (1024 * 1024)) + " MiB";
    }

    long total() {
        long sum = 0;
        for (Group g : groups) {
            sum += bytes(g);
        }
        return sum;
    }

    void print() {
        for (Group g : groups) {
            System.out.println(g.name + ": " + mib(bytes(g)));
        }
        System.out.println("total: " + mib(total()));
    }

    public static void main(String[] args) {
        DiskUsage du = new DiskUsage();
        du.add("photos", 4_500_000, 900);
        du.add("notes", 2_000, 300);
        du.add("videos", 700_000_000, 12);
        du.print();
    }
}
