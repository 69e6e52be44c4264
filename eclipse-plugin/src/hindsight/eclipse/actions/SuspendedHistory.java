package hindsight.eclipse.actions;

import hindsight.eclipse.core.FrameNode;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import java.util.function.Consumer;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.debug.core.DebugException;
import org.eclipse.debug.core.model.IStackFrame;
import org.eclipse.jdt.debug.core.IJavaClassType;
import org.eclipse.jdt.debug.core.IJavaDebugTarget;
import org.eclipse.jdt.debug.core.IJavaFieldVariable;
import org.eclipse.jdt.debug.core.IJavaObject;
import org.eclipse.jdt.debug.core.IJavaPrimitiveValue;
import org.eclipse.jdt.debug.core.IJavaStackFrame;
import org.eclipse.jdt.debug.core.IJavaThread;
import org.eclipse.jdt.debug.core.IJavaType;
import org.eclipse.jdt.debug.core.IJavaValue;

/**
 * From a stack frame of a suspended Hindsight launch to a variable path of the recording, in a
 * Job: the suspended thread first sends its buffered events (the agent's {@code R.flush},
 * invoked in the thread through the debugger), then the core names the frame's running call.
 */
final class SuspendedHistory {
    private SuspendedHistory() {
    }

    static void find(IJavaStackFrame frame, ShowInHistoryHandler.SuspendedVariable v, Consumer<String> found,
            Consumer<String> failed) {
        TraceSession session = Sessions.current();
        if (session == null || Sessions.launchOf(session) != frame.getLaunch()) {
            failed.accept("The suspended program is not the Hindsight launch the views show: launch it with "
                    + "Hindsight As (or from the Hindsight history) to see its variables' history.");
            return;
        }
        Job job = Job.create("Finding the history of " + v.display(), (IProgressMonitor monitor) -> {
            try {
                if (v.absolute()) {
                    flush((IJavaThread) frame.getThread());
                    found.accept(v.path());
                    return Status.OK_STATUS;
                }
                IJavaThread thread = (IJavaThread) frame.getThread();
                flush(thread);
                IStackFrame[] stack = thread.getStackFrames();
                String[] frames = new String[stack.length];
                int index = -1;
                for (int i = 0; i < stack.length; i++) {
                    IJavaStackFrame f = (IJavaStackFrame) stack[i];
                    frames[i] = f.getDeclaringTypeName() + "." + f.getMethodName();
                    if (f.equals(frame)) {
                        index = i;
                    }
                }
                FrameNode node = index < 0 ? null : session.frameNode(javaId(thread), frames, index);
                if (node == null) {
                    failed.accept("The frame " + frame.getDeclaringTypeName() + "." + frame.getMethodName()
                            + " is not recorded (its class is not instrumented, or is excluded in the Hindsight tab).");
                } else {
                    found.accept(node.node().id() + ":" + v.path());
                }
            } catch (DebugException | HindsightException e) {
                failed.accept("Cannot find the history of " + v.display() + ": " + e.getMessage());
            }
            return Status.OK_STATUS;
        });
        job.setUser(true);
        job.schedule();
    }

    /** Asks the suspended thread to send the events its agent buffer holds. */
    static void flush(IJavaThread thread) {
        try {
            IJavaDebugTarget target = (IJavaDebugTarget) thread.getDebugTarget();
            IJavaType[] types = target.getJavaTypes("hindsight.runtime.R");
            if (types != null && types.length > 0 && types[0] instanceof IJavaClassType r && thread.isSuspended()) {
                r.sendMessage("flush", "()V", new IJavaValue[0], thread);
            }
        } catch (DebugException e) {
            // The history then ends at the thread's last flush (at most 100 ms of events earlier
            // when the thread waited in the JDK, a buffer's worth otherwise).
            hindsight.eclipse.Activator.log("flushing the suspended thread's recording", e);
        }
    }

    /** The Java thread id ({@code Thread.getId()}) the trace knows the thread by. */
    static long javaId(IJavaThread thread) throws DebugException {
        IJavaObject t = thread.getThreadObject();
        IJavaFieldVariable tid = t == null ? null : t.getField("tid", false);
        if (tid != null && tid.getValue() instanceof IJavaPrimitiveValue p) {
            return p.getLongValue();
        }
        throw new DebugException(new Status(IStatus.ERROR, hindsight.eclipse.Activator.PLUGIN_ID,
                "cannot read the Java id of thread " + thread.getName()));
    }
}
