/**
 * The local runtime stands in for three AWS services without an SDK call: mail goes to an outbox
 * folder (SES), the address search is embedded (Amazon Location), a secret comes from the
 * environment (Secrets Manager). So that those are held to the function's role as the SDK calls
 * are, each stand-in asks the local IAM check first (infra/local/iam/enforce.ts registers it on
 * this global symbol; it throws AWS's AccessDeniedException when the role does not allow the call).
 * In Lambda nothing registers it and the stand-ins are never reached: this does nothing there.
 */
const CHECK = Symbol.for('portal.localIamCheck');

/** What the stand-in would have sent: the SDK client's and command's names and its input. */
export type LocalAwsCheck = (clientName: string, commandName: string, input: Record<string, unknown>) => Promise<void>;

export async function localAwsCheck(
  clientName: string,
  commandName: string,
  input: Record<string, unknown>,
): Promise<void> {
  const check = (globalThis as Record<symbol, LocalAwsCheck | undefined>)[CHECK];
  if (check) await check(clientName, commandName, input);
}
