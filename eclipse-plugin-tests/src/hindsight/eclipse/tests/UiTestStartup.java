package hindsight.eclipse.tests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.swt.widgets.Display;
import org.eclipse.ui.IStartup;
import org.eclipse.ui.PlatformUI;

/**
 * Starts the UI tests once the workbench is up, when {@code -Dhindsight.uitest.out=DIR} names the
 * directory for results and screenshots; otherwise does nothing.
 */
public class UiTestStartup implements IStartup {
    @Override
    public void earlyStartup() {
        String out = System.getProperty("hindsight.uitest.out");
        if (out == null) {
            return;
        }
        Display display = PlatformUI.getWorkbench().getDisplay();
        display.asyncExec(() -> {
            List<Harness.Step> steps = new ArrayList<>(new WorkbenchTests().steps());
            steps.addAll(new SessionViewTests().steps());
            steps.addAll(new RealSessionTests().steps());
            steps.addAll(new ForestTests().steps());
            steps.addAll(new WorkflowTests().steps());
            // -Dhindsight.uitest.only=REGEX (HINDSIGHT_UITEST_ONLY for cargo xtask eclipse-test)
            // runs the steps whose names it finds, for working on one.
            String only = System.getProperty("hindsight.uitest.only");
            if (only != null && !only.isEmpty()) {
                java.util.regex.Pattern p = java.util.regex.Pattern.compile(only);
                steps.removeIf(step -> !p.matcher(step.name()).find());
            }
            new Harness(Path.of(out), display).run(steps);
        });
    }
}
