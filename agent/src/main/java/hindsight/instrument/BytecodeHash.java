package hindsight.instrument;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.*;

/**
 * The normalised bytecode hash of docs/wire-format.md: SHA-256 over the original instructions
 * with constant-pool references resolved to values and branch targets as instruction indices,
 * then the try/catch table; line numbers, frames and local variable names left out.
 */
final class BytecodeHash {
    private BytecodeHash() {}

    static byte[] of(MethodNode m) {
        try {
            Map<LabelNode, Integer> index = new HashMap<>();
            int n = 0;
            for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i instanceof LabelNode) {
                    index.put((LabelNode) i, n);
                } else if (i.getOpcode() >= 0) {
                    n++;
                }
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            for (AbstractInsnNode i = m.instructions.getFirst(); i != null; i = i.getNext()) {
                if (i.getOpcode() < 0) {
                    continue;
                }
                out.writeByte(i.getOpcode());
                operands(i, index, out);
            }
            out.writeUTF("try");
            for (TryCatchBlockNode t : m.tryCatchBlocks) {
                out.writeInt(index.get(t.start));
                out.writeInt(index.get(t.end));
                out.writeInt(index.get(t.handler));
                out.writeUTF(t.type == null ? "*" : t.type);
            }
            out.flush();
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray()), 16);
        } catch (IOException | java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void operands(AbstractInsnNode i, Map<LabelNode, Integer> index,
            DataOutputStream out) throws IOException {
        if (i instanceof IntInsnNode) {
            out.writeInt(((IntInsnNode) i).operand);
        } else if (i instanceof VarInsnNode) {
            out.writeInt(((VarInsnNode) i).var);
        } else if (i instanceof TypeInsnNode) {
            out.writeUTF(((TypeInsnNode) i).desc);
        } else if (i instanceof FieldInsnNode) {
            FieldInsnNode f = (FieldInsnNode) i;
            out.writeUTF(f.owner + "." + f.name + ":" + f.desc);
        } else if (i instanceof MethodInsnNode) {
            MethodInsnNode c = (MethodInsnNode) i;
            out.writeUTF(c.owner + "." + c.name + c.desc + (c.itf ? "I" : ""));
        } else if (i instanceof InvokeDynamicInsnNode) {
            InvokeDynamicInsnNode d = (InvokeDynamicInsnNode) i;
            out.writeUTF(d.name + d.desc);
            constant(d.bsm, out);
            for (Object a : d.bsmArgs) {
                constant(a, out);
            }
        } else if (i instanceof JumpInsnNode) {
            out.writeInt(index.get(((JumpInsnNode) i).label));
        } else if (i instanceof LdcInsnNode) {
            constant(((LdcInsnNode) i).cst, out);
        } else if (i instanceof IincInsnNode) {
            out.writeInt(((IincInsnNode) i).var);
            out.writeInt(((IincInsnNode) i).incr);
        } else if (i instanceof TableSwitchInsnNode) {
            TableSwitchInsnNode s = (TableSwitchInsnNode) i;
            out.writeInt(s.min);
            out.writeInt(s.max);
            out.writeInt(index.get(s.dflt));
            for (LabelNode l : s.labels) {
                out.writeInt(index.get(l));
            }
        } else if (i instanceof LookupSwitchInsnNode) {
            LookupSwitchInsnNode s = (LookupSwitchInsnNode) i;
            out.writeInt(index.get(s.dflt));
            for (int k = 0; k < s.keys.size(); k++) {
                out.writeInt(s.keys.get(k));
                out.writeInt(index.get(s.labels.get(k)));
            }
        } else if (i instanceof MultiANewArrayInsnNode) {
            out.writeUTF(((MultiANewArrayInsnNode) i).desc);
            out.writeInt(((MultiANewArrayInsnNode) i).dims);
        }
    }

    private static void constant(Object c, DataOutputStream out) throws IOException {
        if (c instanceof Float) {
            out.writeUTF("F" + Float.floatToRawIntBits((Float) c));
        } else if (c instanceof Double) {
            out.writeUTF("D" + Double.doubleToRawLongBits((Double) c));
        } else if (c instanceof Handle || c instanceof Type) {
            out.writeUTF(c.getClass().getSimpleName() + c);
        } else if (c instanceof String) {
            out.writeUTF("S");
            byte[] b = ((String) c).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeInt(b.length);
            out.write(b);
        } else {
            out.writeUTF(String.valueOf(c.getClass().getSimpleName()) + c);
        }
    }
}
