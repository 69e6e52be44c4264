package workloads.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Command-line arguments shared by the workloads: {@code SIZE [INPUT...]}. A bad command line is
 * reported on stderr and ends the program with status 2.
 */
public final class Args {
    private Args() {}

    /** The size argument (args[0]): a positive integer that scales the work linearly. */
    public static int size(String workload, String[] args) {
        if (args.length == 0) {
            throw usage(workload, "missing SIZE");
        }
        try {
            int size = Integer.parseInt(args[0]);
            if (size > 0) {
                return size;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw usage(workload, "SIZE must be a positive integer, got '" + args[0] + "'");
    }

    /**
     * The input files named by args[1..]: files as given, directories expanded to their files
     * ending in {@code suffix}, sorted by name so that every run sees the same order.
     */
    public static List<Path> inputs(String workload, String[] args, String suffix) throws IOException {
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            Path path = Path.of(args[i]);
            if (Files.isDirectory(path)) {
                try (Stream<Path> listing = Files.list(path)) {
                    listing.filter(p -> p.getFileName().toString().endsWith(suffix))
                            .filter(Files::isRegularFile)
                            .sorted()
                            .forEach(files::add);
                }
            } else if (Files.isRegularFile(path)) {
                files.add(path);
            } else {
                throw usage(workload, "input " + path + " does not exist (install the Debian packages"
                        + " listed in tests/workloads/packages.txt)");
            }
        }
        if (files.isEmpty()) {
            throw usage(workload, "no input files ending in " + suffix);
        }
        return files;
    }

    /** Reports a bad command line and exits with status 2, as command-line tools do. */
    private static RuntimeException usage(String workload, String problem) {
        System.err.println(workload + ": " + problem);
        System.err.println("usage: java workloads." + workload + ".Main SIZE [INPUT_FILE_OR_DIR...]");
        System.exit(2);
        return new IllegalStateException("unreachable: System.exit returned");
    }
}
