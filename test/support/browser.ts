import { Browser, chromium, Page } from 'playwright-core';

/** Headless Chromium as the browser tests drive it (the system's build, installed by .ci/run). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** Collects every Content-Security-Policy violation the page reports into `violations`. */
export function recordCspViolations(page: Page, violations: string[]): void {
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
}
