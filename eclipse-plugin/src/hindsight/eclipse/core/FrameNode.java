package hindsight.eclipse.core;

/**
 * The running call behind a suspended thread's stack frame, and the last timestamp recorded.
 *
 * @param node the call
 * @param at the moment the recording has reached (the suspended moment, as far as it knows)
 */
public record FrameNode(TreeNode node, long at) {
}
