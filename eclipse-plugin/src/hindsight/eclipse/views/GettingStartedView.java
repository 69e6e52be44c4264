package hindsight.eclipse.views;

import org.eclipse.core.commands.Command;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.ScrolledComposite;
import org.eclipse.swt.layout.GridLayout;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Link;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.handlers.IHandlerService;
import org.eclipse.ui.part.ViewPart;

/**
 * Getting started with Hindsight: the steps from a launch to the buggy line, each with a link
 * that does it. (Debian's Eclipse has no cheat sheet or help UI, so the page is a view.)
 */
public class GettingStartedView extends ViewPart {
    public static final String ID = "hindsight.eclipse.views.gettingStarted";

    /** The steps: text with {@code <a href="COMMAND">label</a>} links to commands. */
    static final String[] STEPS = {
        "1. Record a run: right-click a class with a main method or a JUnit 4 test class or method, "
            + "Hindsight As > Java Application or JUnit Test (or the Hindsight button of the toolbar, which "
            + "keeps the history). The program runs under the Java debugger: breakpoints work.",
        "2. The Computation Tree fills while it runs and asks about one call at a time: is its result right? "
            + "Answer with the toolbar or the context menu: Valid (Ctrl+Shift+1), Invalid (Ctrl+Shift+2), "
            + "Trust the method (Ctrl+Shift+3), Don't know (Ctrl+Shift+4); Undo with Ctrl+Z.",
        "3. To judge a call, look back in time: the Node view shows its variables at entry and exit, the "
            + "Event List its events; Show in History (Ctrl+Shift+Alt+H) lists every change of a variable, also from "
            + "the Variables view and the Java editor while the launch is suspended at a breakpoint.",
        "4. When the bug is found, the editor opens on the buggy method with the lines the buggy call ran marked, "
            + "and the Problems view says where it is. Undecided, no bug and stopped sessions say what to do next.",
        "5. Traces are kept in the workspace (or the folder of the launch's Hindsight tab): "
            + "<a href=\"hindsight.eclipse.commands.showTraces\">Hindsight Traces</a> lists them to open or delete; "
            + "<a href=\"hindsight.eclipse.commands.openTrace\">Open Hindsight Trace</a> opens one recorded by "
            + "the hindsight command line.",
    };

    @Override
    public void createPartControl(Composite parent) {
        ScrolledComposite scroll = new ScrolledComposite(parent, SWT.V_SCROLL);
        Composite c = new Composite(scroll, SWT.NONE);
        c.setLayout(new GridLayout(1, false));
        Label title = new Label(c, SWT.NONE);
        title.setText("Getting started with Hindsight: find the call that holds the bug");
        title.setFont(org.eclipse.jface.resource.JFaceResources.getHeaderFont());
        for (String step : STEPS) {
            Link l = new Link(c, SWT.WRAP);
            l.setText(step);
            l.setLayoutData(new org.eclipse.swt.layout.GridData(SWT.FILL, SWT.TOP, true, false));
            ((org.eclipse.swt.layout.GridData) l.getLayoutData()).widthHint = 700;
            l.addListener(SWT.Selection, e -> run(e.text));
        }
        scroll.setContent(c);
        scroll.setExpandHorizontal(true);
        scroll.setExpandVertical(true);
        scroll.setMinSize(c.computeSize(720, SWT.DEFAULT));
    }

    private void run(String commandId) {
        try {
            Command cmd = getSite().getService(ICommandService.class).getCommand(commandId);
            if (cmd.isDefined()) {
                getSite().getService(IHandlerService.class).executeCommand(commandId, null);
            }
        } catch (Exception e) {
            hindsight.eclipse.Activator.log("running " + commandId, e);
        }
    }

    @Override
    public void setFocus() {
    }
}
