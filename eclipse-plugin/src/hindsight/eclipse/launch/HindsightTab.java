package hindsight.eclipse.launch;

import hindsight.eclipse.core.Strategies;
import hindsight.eclipse.preferences.PreferenceConstants;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.ui.AbstractLaunchConfigurationTab;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Button;
import org.eclipse.swt.widgets.Combo;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.DirectoryDialog;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Text;

/** The "Hindsight" tab of a Java launch: what to record and trust, the strategy, where traces go. */
public class HindsightTab extends AbstractLaunchConfigurationTab {
    public static final String NAME = "Hindsight";

    private Text record;
    private Text trust;
    private Combo strategy;
    private Text folder;

    @Override
    public void createControl(Composite parent) {
        Composite c = new Composite(parent, SWT.NONE);
        GridLayoutFactory.swtDefaults().numColumns(3).applyTo(c);
        setControl(c);
        record = field(c, "Packages to &record:", "Comma-separated pkg.* or pkg.Class; empty records every class "
                + "of the program (never the JDK or the test runner)");
        trust = field(c, "Packages to &trust:", "Comma-separated pkg.* or pkg.Class.method; their calls are never asked "
                + "about (shown yellow)");
        new Label(c, SWT.NONE).setText("&Strategy:");
        strategy = new Combo(c, SWT.READ_ONLY);
        for (String[] s : Strategies.ALL) {
            strategy.add(s[1]);
        }
        strategy.setToolTipText("Which call the session asks about next");
        strategy.addModifyListener(e -> changed());
        GridDataFactory.fillDefaults().span(2, 1).applyTo(strategy);
        folder = field(c, "Keep traces &in:", "Empty: " + TraceStore.defaultFolder());
    }

    private Text field(Composite c, String label, String tip) {
        new Label(c, SWT.NONE).setText(label);
        Text t = new Text(c, SWT.BORDER);
        t.setToolTipText(tip);
        t.setMessage(tip);
        t.addModifyListener(e -> changed());
        boolean browse = label.startsWith("Keep");
        GridDataFactory.fillDefaults().grab(true, false).span(browse ? 1 : 2, 1).applyTo(t);
        if (browse) {
            Button b = new Button(c, SWT.PUSH);
            b.setText("&Browse...");
            b.addListener(SWT.Selection, e -> {
                DirectoryDialog d = new DirectoryDialog(c.getShell());
                d.setText("Folder for Hindsight traces");
                String dir = d.open();
                if (dir != null) {
                    t.setText(dir);
                }
            });
        }
        return t;
    }

    private void changed() {
        setDirty(true);
        updateLaunchConfigurationDialog();
    }

    @Override
    public void setDefaults(ILaunchConfigurationWorkingCopy c) {
        // Nothing stored: the preferences' values apply until the user changes one here.
    }

    @Override
    public void initializeFrom(ILaunchConfiguration c) {
        try {
            record.setText(LaunchAttributes.record(c));
            trust.setText(LaunchAttributes.trust(c));
            String name = LaunchAttributes.strategy(c);
            for (int i = 0; i < Strategies.ALL.size(); i++) {
                if (Strategies.ALL.get(i)[0].equals(name)) {
                    strategy.select(i);
                }
            }
            folder.setText(LaunchAttributes.traceDir(c));
        } catch (CoreException e) {
            setErrorMessage(e.getMessage());
        }
    }

    @Override
    public void performApply(ILaunchConfigurationWorkingCopy c) {
        c.setAttribute(LaunchAttributes.RECORD, record.getText().strip());
        String t = trust.getText().strip();
        boolean defaultTrust = t.equals(PreferenceConstants.store().getString(PreferenceConstants.TRUSTED_PACKAGES));
        c.setAttribute(LaunchAttributes.TRUST, defaultTrust ? null : t);
        int i = strategy.getSelectionIndex();
        c.setAttribute(LaunchAttributes.STRATEGY, i < 0 ? null : Strategies.ALL.get(i)[0]);
        c.setAttribute(LaunchAttributes.TRACE_DIR, folder.getText().strip());
    }

    @Override
    public boolean isValid(ILaunchConfiguration c) {
        setErrorMessage(null);
        String dir = folder == null ? "" : folder.getText().strip();
        if (!dir.isEmpty()) {
            Path p = Path.of(dir);
            if (!p.isAbsolute()) {
                setErrorMessage("The trace folder must be an absolute path: " + dir);
                return false;
            }
            if (Files.exists(p) && !Files.isDirectory(p)) {
                setErrorMessage("The trace folder is a file: " + dir);
                return false;
            }
        }
        return true;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getId() {
        return "hindsight.eclipse.launch.tab";
    }
}
