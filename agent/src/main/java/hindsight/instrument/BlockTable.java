package hindsight.instrument;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * The flow analysis of a method's original code (docs/wire-format.md, "Blocks and effects"): its
 * basic blocks, each with the line of a line label on its first instruction (else 0) and the
 * variable effects of its instructions in order. A block starts at the first instruction, at
 * every jump or switch target, after every jump, switch, return and athrow, and at every
 * exception handler. Each block also has its successors in the control flow graph (wire format
 * 3): where its last instruction may go, and the handlers of the try ranges it overlaps, from
 * which the recorder finds the method's loops.
 */
final class BlockTable implements Opcodes {
    /** Effect kinds (the wire format's {@code effect.kind}). */
    static final int LOCAL_WRITE = 0, LOCAL_READ = 1, FIELD_WRITE = 2, FIELD_READ = 3,
            ARRAY_WRITE = 4, ARRAY_READ = 5, STATIC_WRITE = 6, STATIC_READ = 7;

    private final Ordinals ordinals;
    /** Block index by the ordinal of its first instruction. */
    private final Map<Integer, Integer> blockAt = new HashMap<>();
    final int[] starts;
    final int[] lines;
    final int[] effectCounts;
    /** By block: its successors (block indices), distinct, in the order found. */
    final int[][] successors;
    private final List<Integer> effectKinds = new ArrayList<>();
    private final List<Integer> effectTargets = new ArrayList<>();

    BlockTable(MethodNode m, AbstractInsnNode[] orig, Ordinals ordinals, Vars vars,
            FieldIds fields) {
        this.ordinals = ordinals;
        starts = leaders(m, orig, ordinals);
        lines = new int[starts.length];
        effectCounts = new int[starts.length];
        for (int i = 0; i < starts.length; i++) {
            blockAt.put(starts[i], i);
        }
        int block = -1;
        for (AbstractInsnNode x : orig) {
            if (x instanceof LineNumberNode) {
                int b = startingAt(x);
                if (b >= 0) {
                    lines[b] = ((LineNumberNode) x).line;
                }
                continue;
            }
            if (x.getOpcode() < 0) {
                continue;
            }
            int b = startingAt(x);
            if (b >= 0) {
                block = b;
            }
            if (block >= 0) {
                int before = effectKinds.size();
                effectsOf(x, vars, fields);
                effectCounts[block] += effectKinds.size() - before;
            }
        }
        successors = successors(m, orig, ordinals);
    }

    /**
     * The control flow successors of each block: the jump or switch targets of its last
     * instruction, the next block unless that instruction is a goto, switch, return, athrow or
     * ret (whose targets are unknown here), and every handler whose try range overlaps the block.
     */
    private int[][] successors(MethodNode m, AbstractInsnNode[] orig, Ordinals ordinals) {
        int n = starts.length;
        AbstractInsnNode[] last = new AbstractInsnNode[n];
        int block = -1;
        for (AbstractInsnNode x : orig) {
            if (x.getOpcode() < 0) {
                continue;
            }
            int b = startingAt(x);
            if (b >= 0) {
                block = b;
            }
            if (block >= 0) {
                last[block] = x;
            }
        }
        int[][] out = new int[n][];
        for (int i = 0; i < n; i++) {
            List<Integer> succ = new ArrayList<>();
            AbstractInsnNode x = last[i];
            int op = x == null ? -1 : x.getOpcode();
            boolean fallsThrough = op != GOTO && !(op >= IRETURN && op <= RETURN) && op != ATHROW
                    && op != RET && !(x instanceof TableSwitchInsnNode)
                    && !(x instanceof LookupSwitchInsnNode);
            if (x instanceof JumpInsnNode) {
                add(succ, startingAt(((JumpInsnNode) x).label));
            } else if (x instanceof TableSwitchInsnNode) {
                TableSwitchInsnNode s = (TableSwitchInsnNode) x;
                add(succ, startingAt(s.dflt));
                for (LabelNode l : s.labels) {
                    add(succ, startingAt(l));
                }
            } else if (x instanceof LookupSwitchInsnNode) {
                LookupSwitchInsnNode s = (LookupSwitchInsnNode) x;
                add(succ, startingAt(s.dflt));
                for (LabelNode l : s.labels) {
                    add(succ, startingAt(l));
                }
            }
            if (fallsThrough && i + 1 < n) {
                add(succ, i + 1);
            }
            int from = starts[i];
            int to = i + 1 < n ? starts[i + 1] : ordinals.count;
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                int tryStart = ordinals.of(t.start);
                int tryEnd = ordinals.of(t.end);
                if (tryStart < to && from < tryEnd) {
                    add(succ, startingAt(t.handler));
                }
            }
            out[i] = Ints.of(succ);
        }
        return out;
    }

    private static void add(List<Integer> succ, int block) {
        if (block >= 0 && !succ.contains(block)) {
            succ.add(block);
        }
    }

    private void effectsOf(AbstractInsnNode x, Vars vars, FieldIds fields) {
        int op = x.getOpcode();
        if (op >= ILOAD && op <= ALOAD) {
            effect(LOCAL_READ, vars.read(x, ((VarInsnNode) x).var, op));
        } else if (op >= ISTORE && op <= ASTORE) {
            effect(LOCAL_WRITE, vars.written(x, ((VarInsnNode) x).var, op));
        } else if (op == IINC) {
            effect(LOCAL_READ, vars.read(x, ((IincInsnNode) x).var, ILOAD));
            effect(LOCAL_WRITE, vars.written(x, ((IincInsnNode) x).var, ISTORE));
        } else if (op == PUTFIELD || op == GETFIELD || op == PUTSTATIC || op == GETSTATIC) {
            FieldInsnNode f = (FieldInsnNode) x;
            boolean isStatic = op == PUTSTATIC || op == GETSTATIC;
            int fid = fields.of(f, isStatic);
            effect(op == PUTFIELD ? FIELD_WRITE : op == GETFIELD ? FIELD_READ
                    : op == PUTSTATIC ? STATIC_WRITE : STATIC_READ, fid);
        } else if (op >= IASTORE && op <= SASTORE) {
            effect(ARRAY_WRITE, 0);
        } else if (op >= IALOAD && op <= SALOAD) {
            effect(ARRAY_READ, 0);
        }
    }

    /** An effect on a variable; compiler temporaries (target -1) have none. */
    private void effect(int kind, int target) {
        if (target >= 0) {
            effectKinds.add(kind);
            effectTargets.add(target);
        }
    }

    /** The block whose first instruction is {@code x} (or a label or line before it), else -1. */
    int startingAt(AbstractInsnNode x) {
        Integer b = blockAt.get(ordinals.of(x));
        return b == null ? -1 : b;
    }

    int[] effectKinds() {
        return Ints.of(effectKinds);
    }

    int[] effectTargets() {
        return Ints.of(effectTargets);
    }

    /** The ordinals of the blocks' first instructions, in order. */
    private static int[] leaders(MethodNode m, AbstractInsnNode[] orig, Ordinals ordinals) {
        TreeSet<Integer> leaders = new TreeSet<>();
        if (ordinals.count > 0) {
            leaders.add(0);
        }
        for (AbstractInsnNode x : orig) {
            int op = x.getOpcode();
            if (x instanceof JumpInsnNode) {
                leaders.add(ordinals.of(((JumpInsnNode) x).label));
                leaders.add(ordinals.of(x) + 1);
            } else if (x instanceof TableSwitchInsnNode) {
                TableSwitchInsnNode s = (TableSwitchInsnNode) x;
                leaders.add(ordinals.of(s.dflt));
                for (LabelNode l : s.labels) {
                    leaders.add(ordinals.of(l));
                }
                leaders.add(ordinals.of(x) + 1);
            } else if (x instanceof LookupSwitchInsnNode) {
                LookupSwitchInsnNode s = (LookupSwitchInsnNode) x;
                leaders.add(ordinals.of(s.dflt));
                for (LabelNode l : s.labels) {
                    leaders.add(ordinals.of(l));
                }
                leaders.add(ordinals.of(x) + 1);
            } else if ((op >= IRETURN && op <= RETURN) || op == ATHROW || op == RET) {
                leaders.add(ordinals.of(x) + 1);
            }
        }
        for (TryCatchBlockNode t : m.tryCatchBlocks) {
            leaders.add(ordinals.of(t.handler));
        }
        // A leader past the last instruction starts nothing.
        return Ints.of(leaders.headSet(ordinals.count));
    }
}
