package hindsight.eclipse.tests;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.GC;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.graphics.ImageData;
import org.eclipse.swt.graphics.ImageLoader;
import org.eclipse.swt.widgets.Display;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.PlatformUI;

/**
 * Runs test steps in the UI thread, one after the other: each step passes or fails with its
 * message, a screenshot of the screen follows every step, results go to {@code results.txt} as
 * they come (so a killed run still shows how far it got), and the last line is
 * {@code N passed, M failed}. Then the workbench closes.
 */
public final class Harness {
    /** A named test step. */
    public record Step(String name, Body body) {
    }

    /** A step's code; it throws to fail. */
    public interface Body {
        void run(Harness h) throws Exception;
    }

    private final Path out;
    private final Display display;
    private final List<String> results = new ArrayList<>();
    private int shot;

    Harness(Path out, Display display) {
        this.out = out;
        this.display = display;
    }

    public Display display() {
        return display;
    }

    void run(List<Step> steps) {
        int passed = 0;
        int failed = 0;
        // Fill the screen so the screenshots show every view at a readable size.
        PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell().setBounds(display.getBounds());
        settle(500);
        for (Step step : steps) {
            String line;
            boolean[] overran = {false};
            // Closes what a stuck step left open, and looks again a minute later.
            Runnable[] watchdog = new Runnable[1];
            watchdog[0] = () -> {
                overran[0] |= closeDialogs();
                display.timerExec(STEP_LIMIT_MILLIS, watchdog[0]);
            };
            display.timerExec(STEP_LIMIT_MILLIS, watchdog[0]);
            try {
                step.body().run(this);
                if (overran[0]) {
                    throw new Check.Failure("a dialog stayed open for " + STEP_LIMIT_MILLIS / 1000
                            + " s and was closed");
                }
                passed++;
                line = "PASS " + step.name();
            } catch (Throwable t) {
                failed++;
                line = "FAIL " + step.name() + ": " + describe(t);
            } finally {
                display.timerExec(-1, watchdog[0]);
            }
            settle(300);
            screenshot(step.name());
            record(line);
        }
        record(passed + " passed, " + failed + " failed");
        PlatformUI.getWorkbench().close();
    }

    /** How long a step may keep a dialog open before the watchdog closes it. */
    static final int STEP_LIMIT_MILLIS = 60_000;

    /** Closes every shell but the workbench windows' (a step stuck in a modal dialog); true if any. */
    private boolean closeDialogs() {
        java.util.Set<Shell> windows = new java.util.HashSet<>();
        for (var w : PlatformUI.getWorkbench().getWorkbenchWindows()) {
            windows.add(w.getShell());
        }
        boolean closed = false;
        for (Shell s : display.getShells()) {
            if (!windows.contains(s) && !s.isDisposed() && s.isVisible()) {
                screenshot("watchdog closes " + s.getText());
                s.close();
                closed = true;
            }
        }
        return closed;
    }

    private static String describe(Throwable t) {
        if (t instanceof Check.Failure) {
            return t.getMessage();
        }
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString().trim();
    }

    private void record(String line) {
        System.out.println("UITEST " + line);
        results.add(line);
        try {
            Files.createDirectories(out);
            Files.write(out.resolve("results.txt"), results);
        } catch (IOException e) {
            System.out.println("UITEST cannot write results: " + e);
        }
    }

    /** Runs the event loop for {@code millis} so the UI can paint and jobs can post their results. */
    public void settle(long millis) {
        long end = System.currentTimeMillis() + millis;
        waitUntil(() -> System.currentTimeMillis() >= end, millis + 1000);
    }

    /** Runs the event loop until {@code condition} holds; false when {@code timeoutMillis} passed first. */
    public boolean waitUntil(BooleanSupplier condition, long timeoutMillis) {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() >= end) {
                return false;
            }
            if (!display.readAndDispatch()) {
                display.timerExec(20, () -> { });
                display.sleep();
            }
        }
        return true;
    }

    /** Saves the whole screen as {@code NN-name.png} in the output directory. */
    public void screenshot(String name) {
        String file = String.format("%02d-%s.png", ++shot, name.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase());
        GC gc = new GC(display);
        Image image = new Image(display, display.getBounds());
        try {
            gc.copyArea(image, 0, 0);
            ImageLoader loader = new ImageLoader();
            loader.data = new ImageData[] {image.getImageData()};
            Files.createDirectories(out);
            loader.save(out.resolve(file).toString(), SWT.IMAGE_PNG);
        } catch (Exception e) {
            System.out.println("UITEST screenshot " + file + " failed: " + e);
        } finally {
            gc.dispose();
            image.dispose();
        }
    }
}
