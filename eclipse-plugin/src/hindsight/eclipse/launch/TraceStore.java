package hindsight.eclipse.launch;

import hindsight.eclipse.Activator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where traces are kept: the folder a launch configuration names, by default {@code traces} in
 * the plugin's state area of the workspace ({@code .metadata/.plugins/hindsight.eclipse/traces}).
 * A launch's trace is named after the configuration and the time; further JVMs of the same
 * launch get {@code NAME.2.htrace}, ... (the core numbers them).
 */
public final class TraceStore {
    public static final String EXTENSION = ".htrace";

    private TraceStore() {
    }

    /** The default folder. */
    public static Path defaultFolder() {
        return Activator.getDefault().getStateLocation().toFile().toPath().resolve("traces");
    }

    /** {@code dir} when given, else the default folder. */
    public static Path folder(String dir) {
        return dir == null || dir.isBlank() ? defaultFolder() : Path.of(dir.strip());
    }

    /** A new trace path in {@code folder} for a launch of {@code name}; creates the folder. */
    public static Path newTrace(Path folder, String name) throws IOException {
        Files.createDirectories(folder);
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        String base = name.replaceAll("[^A-Za-z0-9._-]+", "_") + "-" + stamp;
        Path p = folder.resolve(base + EXTENSION);
        for (int i = 2; Files.exists(p); i++) {
            p = folder.resolve(base + "_" + i + EXTENSION);
        }
        return p;
    }

    /** The traces of {@code folder}, newest first (none when it does not exist). */
    public static List<Path> list(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(folder)) {
            List<Path> out = new ArrayList<>(s.filter(p -> p.getFileName().toString().endsWith(EXTENSION)).toList());
            out.sort(Comparator.comparing((Path p) -> p.toFile().lastModified()).reversed());
            return out;
        }
    }

    /** Deletes a trace with SQLite's companion files ({@code -wal}, {@code -shm}). */
    public static void delete(Path trace) throws IOException {
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            Files.deleteIfExists(trace.resolveSibling(trace.getFileName() + suffix));
        }
    }
}
