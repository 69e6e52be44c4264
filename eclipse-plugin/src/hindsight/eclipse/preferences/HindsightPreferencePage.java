package hindsight.eclipse.preferences;

import static hindsight.eclipse.preferences.PreferenceConstants.*;

import hindsight.eclipse.core.Strategies;
import org.eclipse.jface.preference.ComboFieldEditor;
import org.eclipse.jface.preference.FieldEditorPreferencePage;
import org.eclipse.jface.preference.IntegerFieldEditor;
import org.eclipse.jface.preference.StringFieldEditor;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPreferencePage;

/** Window > Preferences > Hindsight: strategy, p values, trusted packages, cache bounds. */
public class HindsightPreferencePage extends FieldEditorPreferencePage implements IWorkbenchPreferencePage {
    public static final String ID = "hindsight.eclipse.preferences";

    public HindsightPreferencePage() {
        super(GRID);
        setDescription("Algorithmic debugging with Hindsight");
    }

    @Override
    public void init(IWorkbench workbench) {
        setPreferenceStore(store());
    }

    @Override
    protected void createFieldEditors() {
        Composite p = getFieldEditorParent();
        String[][] strategies = Strategies.ALL.stream().map(s -> new String[] {s[1], s[0]}).toArray(String[][]::new);
        addField(new ComboFieldEditor(STRATEGY, "&Strategy:", strategies, p));
        addField(new ProbabilityFieldEditor(P_EDGES, "p for &edge coverage:", p));
        addField(new ProbabilityFieldEditor(P_DEF_USE, "p for &def-use coverage:", p));
        addField(new StringFieldEditor(TRUSTED_PACKAGES, "&Trusted packages:", p));
        addField(bound(PERSISTENCE_BOUND, "&Persistence bound (nodes in memory):", p));
        addField(bound(LOGIC_BOUND, "&Logic cache (questions kept):", p));
        addField(bound(PRESENTATION_DEPTH, "P&resentation depth:", p));
    }

    private static IntegerFieldEditor bound(String key, String label, Composite parent) {
        IntegerFieldEditor f = new IntegerFieldEditor(key, label, parent);
        f.setValidRange(1, Integer.MAX_VALUE);
        return f;
    }

    /** A number strictly between 0 and 1. */
    static final class ProbabilityFieldEditor extends StringFieldEditor {
        ProbabilityFieldEditor(String key, String label, Composite parent) {
            super(key, label, parent);
            setErrorMessage(label.replace("&", "").replace(":", "") + " must be a number between 0 and 1");
        }

        @Override
        protected boolean doCheckState() {
            try {
                double v = Double.parseDouble(getStringValue().trim());
                return v > 0 && v < 1;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }
}
