import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn the CLI and read the corpus; two workers match the CI machine.
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/setup/tmpdir-guard.ts'],
    setupFiles: ['test/setup/remove-temp-dirs.ts'],
  },
});
