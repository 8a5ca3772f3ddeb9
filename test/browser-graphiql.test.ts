/**
 * GraphiQL as a newcomer uses it, in a real browser (Debian's headless
 * Chromium through playwright-core): Monaco's workers load from the gateway,
 * typeahead suggests the fields at the cursor, an unknown field is marked,
 * hovering a field shows its description, a query and a subscription both
 * run, and the console stays clean from load to the last result.
 *
 * `npm test` installs /usr/bin/chromium when missing (scripts/system-deps.ts).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { startStack, type TestStack } from './support/servers.js';

/** What the page reported that a user would see in the console (errors, uncaught exceptions, warnings about Monaco's workers), and the workers and sockets it opened. */
interface Complaints {
  readonly console: string[];
  readonly page: string[];
  readonly workers: string[];
  readonly sockets: string[];
}

function watch(page: Page): Complaints {
  const complaints: Complaints = { console: [], page: [], workers: [], sockets: [] };
  page.on('console', (message) => {
    if (message.type() === 'error' || (message.type() === 'warning' && /worker/i.test(message.text()))) {
      complaints.console.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => complaints.page.push(error.message));
  page.on('worker', (worker) => complaints.workers.push(worker.url()));
  page.on('websocket', (socket) => complaints.sockets.push(socket.url()));
  return complaints;
}

/** Monaco's API as GraphiQL 5 exposes it on the page (`globalThis.__MONACO`): only what the tests read. */
interface MonacoOnPage {
  editor: {
    getModels(): Array<{ uri: { path: string }; getValue(): string }>;
    getModelMarkers(filter: {
      resource?: unknown;
    }): Array<{ message: string; severity: number; startColumn: number; endColumn: number }>;
  };
}

let stack: TestStack;
let browser: Browser;
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** GraphiQL in a fresh profile (no tab state stored from an earlier visit), watched from the first byte. */
async function openGraphiQL(): Promise<{ context: BrowserContext; page: Page; complaints: Complaints }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const complaints = watch(page);
  await page.goto(`${stack.gateway.url}/graphql`);
  await page.locator('.graphiql-execute-button').waitFor({ timeout: 20_000 });
  return { context, page, complaints };
}

/**
 * Runs the operation with GraphiQL's shortcut (Ctrl-Enter), once the
 * suggestions typing opened are closed: they would take the keys, and they
 * cover the run button.
 */
async function run(page: Page): Promise<void> {
  const suggestions = page.locator('.suggest-widget.visible');
  await expect
    .poll(
      async () => {
        if ((await suggestions.count()) > 0) await page.keyboard.press('Escape');
        return suggestions.count();
      },
      { timeout: 10_000 },
    )
    .toBe(0);
  await page.keyboard.press('Control+Enter');
}

describe('GraphiQL in headless Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let complaints: Complaints;

  beforeAll(async () => {
    ({ context, page, complaints } = await openGraphiQL());
  });
  afterAll(() => context?.close());

  const editor = () => page.locator('.graphiql-query-editor .monaco-editor').first();

  /** Replaces the operation by typing it, as a user would (Monaco closes each brace it opens). */
  async function typeOperation(text: string): Promise<void> {
    await editor().locator('.view-lines').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.type(text);
  }

  /** The markers Monaco holds for the operation editor's model. */
  function operationMarkers(): Promise<Array<{ message: string; severity: number }>> {
    return page.evaluate(() => {
      const monaco = (globalThis as unknown as { __MONACO?: MonacoOnPage }).__MONACO;
      if (monaco === undefined) return [];
      const model = monaco.editor.getModels().find((candidate) => candidate.uri.path.endsWith('operation.graphql'));
      return model === undefined
        ? []
        : monaco.editor
            .getModelMarkers({ resource: model.uri })
            .map(({ message, severity }) => ({ message, severity }));
    });
  }

  it("Monaco's workers load from the gateway's own files", async () => {
    await expect.poll(() => complaints.workers.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const origin = new URL(stack.gateway.url).origin;
    for (const url of complaints.workers)
      expect(url).toMatch(new RegExp(`^${origin}/graphiql/\\w+\\.worker-[0-9a-f]{16}\\.js$`));
  });

  it('Ctrl+Space after `{ v1 { hoc` suggests `hockey`', async () => {
    await typeOperation('{ v1 { hoc');
    await page.keyboard.press('Control+Space');
    const suggestions = page.locator('.suggest-widget.visible .monaco-list-row');
    await expect
      .poll(() => suggestions.allTextContents(), { timeout: 10_000 })
      .toContainEqual(expect.stringContaining('hockey'));
    await page.keyboard.press('Escape');
  });

  it('an unknown field is marked: `{ v1 { hockey { standing } } }` gets an error marker and a squiggle', async () => {
    await typeOperation('{ v1 { hockey { standing ');
    await expect.poll(operationMarkers, { timeout: 10_000 }).toContainEqual(
      expect.objectContaining({
        message: expect.stringContaining('Cannot query field "standing" on type "V1Hockey"'),
      }),
    );
    await expect.poll(() => editor().locator('.squiggly-error').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('hovering a field shows its description from the schema', async () => {
    await typeOperation('{ v1 { hockey { standings { season ');
    await expect.poll(operationMarkers, { timeout: 10_000 }).toEqual([]);
    await editor()
      .locator('.view-line span', { hasText: /^standings$/ })
      .hover();
    await expect
      .poll(() => page.locator('.monaco-hover:not(.hidden)').textContent(), { timeout: 10_000 })
      .toContain('A league table.');
  });

  it('a query runs and its data shows in the results pane', async () => {
    await typeOperation('{ v1 { hockey { standings(competition: 11) { season ');
    await run(page);
    await expect
      .poll(() => page.locator('.graphiql-response').textContent(), { timeout: 15_000 })
      .toMatch(/"season":\s*2026/);
  });

  it("a subscription runs over the gateway's WebSocket and its first event shows", async () => {
    await typeOperation('subscription { quotaUpdates { plan limit ');
    await run(page);
    await expect
      .poll(() => page.locator('.graphiql-response').textContent(), { timeout: 15_000 })
      .toMatch(/"limit":\s*7500/);
    expect(complaints.sockets).toContain(`${stack.gateway.url.replace('http', 'ws')}/graphql`);
  });

  it('no console error and no page error from load through running both', () => {
    expect(complaints.page).toEqual([]);
    expect(complaints.console).toEqual([]);
  });
});

describe('GraphiQL opens on the example operations', () => {
  let context: BrowserContext;
  let page: Page;
  let complaints: Complaints;

  beforeAll(async () => {
    ({ context, page, complaints } = await openGraphiQL());
  });
  afterAll(() => context?.close());

  const tabs = () => page.locator('.graphiql-tab-button');
  const activeTab = () => page.locator('.graphiql-tab-active .graphiql-tab-button').textContent();
  /** The model behind an editor of the active tab (`operation.graphql`, `variables.json`). */
  const editorText = (suffix: string): Promise<string | undefined> =>
    page.evaluate((end) => {
      const monaco = (globalThis as unknown as { __MONACO?: MonacoOnPage }).__MONACO;
      return monaco?.editor
        .getModels()
        .find((model) => model.uri.path.endsWith(end))
        ?.getValue();
    }, suffix);
  /** The whole response (the pane's DOM holds only the lines in view). */
  const response = () => editorText('response.json');

  /** The operation yoga's page wrote into the address (`?query=`). */
  const addressQuery = () => page.evaluate(() => new URLSearchParams(location.search).get('query'));

  /**
   * Selects a tab; clicks again while its entrance animation swallows the
   * click. Then waits until GraphiQL has taken in the tab's operation: it
   * reads the operation names a run sends a moment after the editor's text
   * changes (in the step that also writes the text into the address), so a
   * run before that sends the previous tab's name ("Cannot infer operation").
   */
  async function select(name: string): Promise<void> {
    await expect
      .poll(
        async () => {
          if ((await activeTab()) !== name)
            await tabs()
              .filter({ hasText: new RegExp(`^${name}$`) })
              .click();
          return activeTab();
        },
        { timeout: 10_000 },
      )
      .toBe(name);
    const operation = await editorText('operation.graphql');
    await expect.poll(addressQuery, { timeout: 10_000 }).toBe(operation);
  }

  it('one tab per example, in order, the first with its description and its variables; no stock welcome', async () => {
    expect(await tabs().allTextContents()).toEqual([
      'HockeyNight',
      'WorldCup',
      'V2Discovery',
      'V6TeamStats',
      'LogoFallback',
      'OddsSnapshots',
      'Allowance',
    ]);
    expect(await activeTab()).toBe('HockeyNight');
    await expect.poll(() => editorText('operation.graphql')).toMatch(/^# A hockey night on V1/);
    expect(JSON.parse((await editorText('variables.json')) ?? '')).toEqual({
      standings: '11',
      news: '303',
      game: '410001',
    });
    expect(await page.locator('body').textContent()).not.toContain('Welcome to');
  });

  it('the first tab runs as it opens, and the odds subscription tab shows its first snapshot', async () => {
    await page.locator('.graphiql-query-editor .view-lines').click();
    await run(page);
    await expect.poll(response, { timeout: 15_000 }).toMatch(/"moneyline":\s*\{/);
    await select('OddsSnapshots');
    await expect.poll(() => editorText('variables.json')).toContain('920001');
    await page.locator('.graphiql-query-editor .view-lines').click();
    await run(page);
    await expect.poll(response, { timeout: 15_000 }).toMatch(/"matchId":\s*"920001"/);
  });

  it("the schema explorer plugin (@graphiql/plugin-explorer, in the app bundle) shows the open operation's fields", async () => {
    await page.locator('button[aria-label="Show GraphiQL Explorer"]').click();
    const explorer = page.locator('.docExplorerWrap').first();
    await expect
      .poll(() => explorer.textContent(), { timeout: 10_000 })
      .toMatch(/subscription.*oddsSnapshots.*GraphiQL Explorer/s);
  });

  it('a reload keeps the tabs as they were: no tab added, the active one shown', async () => {
    await page.reload();
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 20_000 });
    expect(await tabs().count()).toBe(7);
    expect(await activeTab()).toBe('OddsSnapshots');
    await expect.poll(() => editorText('operation.graphql')).toContain('subscription OddsSnapshots');
    await expect.poll(() => editorText('variables.json')).toContain('920001');
  });

  it('no console error and no page error throughout', () => {
    expect(complaints.page).toEqual([]);
    expect(complaints.console).toEqual([]);
  });
});
