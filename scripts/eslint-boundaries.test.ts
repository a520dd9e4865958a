import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layout rules of eslint.config.js, run on made-up files at real paths. Those files are not on disk, so no
// TypeScript project holds them: parsed without type information, and only the layout rule runs.
const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === 'layout/boundaries',
});

async function ruleErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'layout/boundaries').map((m) => m.message);
}

describe('import boundaries', () => {
  it('refuses a console feature importing another feature, and the shared layers importing a feature', async () => {
    const crossing = await ruleErrors(
      'apps/web/src/features/dashboard/components/x.tsx',
      "import { ProxyTable } from '../../proxies/components/proxy-table';\nexport const x = ProxyTable;\n",
    );
    expect(crossing).toEqual([expect.stringContaining('feature "dashboard" may not import feature "proxies"')]);
    const shared = await ruleErrors(
      'apps/web/src/lib/x.ts',
      "import { y } from '../features/proxies/y';\nexport const x = y;\n",
    );
    expect(shared).toEqual([expect.stringContaining('(src/lib) may not import a feature ("proxies")')]);
    const ownFeature = await ruleErrors(
      'apps/web/src/features/proxies/components/x.tsx',
      "import { y } from '../api/token-list';\nimport { z } from '../../../lib/api-client';\nexport const x = [y, z];\n",
    );
    expect(ownFeature).toEqual([]);
  });

  it('refuses one app importing another, by package or by path; the launcher composes server and gateway', async () => {
    expect(
      await ruleErrors(
        'apps/server/src/x.ts',
        "import { startGateway } from '@proxy/gateway';\nexport const x = startGateway;\n",
      ),
    ).toHaveLength(1);
    expect(
      await ruleErrors('apps/gateway/src/x.ts', "import { y } from '../../server/src/app';\nexport const x = y;\n"),
    ).toHaveLength(1);
    expect(
      await ruleErrors('bench/x.ts', "import { y } from '../apps/server/src/app';\nexport const x = y;\n"),
    ).toHaveLength(1);
    expect(
      await ruleErrors(
        'apps/launcher/src/x.ts',
        "import { startGateway } from '@proxy/gateway';\nimport { startApi } from '@proxy/server';\nexport const x = [startGateway, startApi];\n",
      ),
    ).toEqual([]);
  });

  it('keeps the browser plugin apart: it takes the contract (bundled), no other app, and no app takes it', async () => {
    expect(
      await ruleErrors(
        'apps/browser-plugin/src/x.ts',
        "import { y } from '@proxy/contract/plugin-protocol';\nexport const x = y;\n",
      ),
    ).toEqual([]);
    expect(
      await ruleErrors('apps/browser-plugin/src/x.ts', "import { y } from '@proxy/server';\nexport const x = y;\n"),
    ).toHaveLength(1);
    expect(
      await ruleErrors('apps/server/src/x.ts', "import { y } from '@proxy/browser-plugin';\nexport const x = y;\n"),
    ).toHaveLength(1);
    expect(
      await ruleErrors(
        'apps/server/src/x.ts',
        "import { y } from '../../browser-plugin/src/settings';\nexport const x = y;\n",
      ),
    ).toHaveLength(1);
  });

  it('lets a server feature import only features of a lower level; tests and test kits import any', async () => {
    const upward = "import { toProxyToken } from '../proxies/proxies.service';\nexport const x = toProxyToken;\n";
    expect(await ruleErrors('apps/server/src/features/ledger/ledger.service.ts', upward)).toEqual([
      expect.stringContaining('Server feature "ledger" (level 0) may not import feature "proxies" (level 3)'),
    ]);
    const sameLevel =
      "import { createPendingRebate } from '../invite/invite.service';\nexport const x = createPendingRebate;\n";
    expect(await ruleErrors('apps/server/src/features/auth/auth.service.ts', sameLevel)).toHaveLength(1);
    const downward =
      "import { createLedgerService } from '../ledger/ledger.service';\nexport const x = createLedgerService;\n";
    expect(await ruleErrors('apps/server/src/features/proxies/proxies.service.ts', downward)).toEqual([]);
    expect(await ruleErrors('apps/server/src/features/ledger/ledger.service.test.ts', upward)).toEqual([]);
    expect(await ruleErrors('apps/server/src/features/ledger/ledger-test-kit.ts', upward)).toEqual([]);
    expect(await ruleErrors('apps/server/src/features/made-up/made-up.service.ts', downward)).toEqual([
      expect.stringContaining('"made-up" has no level'),
    ]);
  });

  it('keeps Drizzle in repositories', async () => {
    const code = "import { eq } from 'drizzle-orm';\nexport const x = eq;\n";
    expect(await ruleErrors('apps/server/src/features/proxies/proxies.service.ts', code)).toHaveLength(1);
    expect(await ruleErrors('apps/server/src/features/proxies/proxies.repository.ts', code)).toEqual([]);
    expect(await ruleErrors('apps/server/src/features/proxies/proxies.manage.test.ts', code)).toEqual([]);
  });
});
