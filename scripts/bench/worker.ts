/**
 * What a bench worker process shares (catalogue-worker.ts, pictures-worker.ts): its peak memory,
 * and running the mode named on its command line, printing the mode's result as one JSON line
 * for the bench's process to read (exit 0), the error otherwise (exit 1), the usage when the mode
 * is unknown or an argument is missing (exit 2).
 */
export const peakRssMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

export function runWorkerMode(
  modes: Record<string, () => Promise<object>>,
  mode: string | undefined,
  usage: string,
  argumentsGiven = true,
): void {
  const run = modes[mode ?? ''];
  if (!run || !argumentsGiven) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  run().then(
    (result) => {
      console.log(JSON.stringify(result));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
