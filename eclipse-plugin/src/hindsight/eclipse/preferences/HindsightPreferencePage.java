package hindsight.eclipse.preferences;

import static hindsight.eclipse.preferences.PreferenceConstants.*;

import hindsight.eclipse.core.Strategies;
import org.eclipse.jface.preference.BooleanFieldEditor;
import org.eclipse.jface.preference.ComboFieldEditor;
import org.eclipse.jface.preference.FieldEditor;
import org.eclipse.jface.preference.FieldEditorPreferencePage;
import org.eclipse.jface.preference.IntegerFieldEditor;
import org.eclipse.jface.preference.StringFieldEditor;
import org.eclipse.swt.SWT;
import org.eclipse.swt.layout.GridData;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.ui.IWorkbench;
import org.eclipse.ui.IWorkbenchPreferencePage;

/**
 * Window > Preferences > Hindsight: strategy, p values, trusted packages, cache bounds, and the
 * shape of the execution tree (balanced into the execution forest, loop nodes, the longest
 * chain). The strategy applies to the open session at once; the tree's shape to the next session,
 * since the open one's answers are about the nodes of its tree.
 */
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
        addField(new BooleanFieldEditor(BALANCE,
                "&Balance the execution tree (collapse and project chains of calls and iterations)", p));
        addField(new BooleanFieldEditor(LOOPS, "Ask about &loops and their iterations", p));
        IntegerFieldEditor chain = new MaxChainFieldEditor(MAX_CHAIN, "&Maximum chain length (0: no limit):", p);
        addField(chain);
        addField(new NoteFieldEditor(TREE_NOTE, p));
    }

    /** The note under the tree's options: when they apply. */
    public static final String TREE_NOTE = "The execution tree's shape applies to the next session (a launch or "
            + "Open Trace): the open session keeps its tree, whose nodes its answers are about.";

    /** The most calls one collapsed or projected node stands for: 0 (no limit) or at least 2. */
    static final class MaxChainFieldEditor extends IntegerFieldEditor {
        MaxChainFieldEditor(String key, String label, Composite parent) {
            super(key, label, parent);
            setValidRange(0, Integer.MAX_VALUE);
            setErrorMessage("The maximum chain length must be 0 (no limit) or at least 2");
        }

        @Override
        protected boolean checkState() {
            if (!super.checkState()) {
                return false;
            }
            try {
                if (getIntValue() == 1) {
                    showErrorMessage();
                    return false;
                }
            } catch (NumberFormatException e) {
                return false;
            }
            return true;
        }
    }

    /** A line of text across the page, storing nothing. */
    static final class NoteFieldEditor extends FieldEditor {
        private Label label;

        NoteFieldEditor(String text, Composite parent) {
            init("tree.note", text);
            createControl(parent);
        }

        @Override
        protected void adjustForNumColumns(int numColumns) {
            ((GridData) label.getLayoutData()).horizontalSpan = numColumns;
        }

        @Override
        protected void doFillIntoGrid(Composite parent, int numColumns) {
            label = new Label(parent, SWT.WRAP);
            label.setText(getLabelText());
            GridData data = new GridData(SWT.FILL, SWT.CENTER, true, false, numColumns, 1);
            data.widthHint = 400;
            label.setLayoutData(data);
        }

        @Override
        protected void doLoad() {
        }

        @Override
        protected void doLoadDefault() {
        }

        @Override
        protected void doStore() {
        }

        @Override
        public int getNumberOfControls() {
            return 1;
        }
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
