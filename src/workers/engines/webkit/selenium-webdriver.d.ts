// The part of selenium-webdriver 4.46 that client.ts uses: its wire pieces, module by module (the
// package has no "exports", so ESM imports name the files). The package ships no types, and
// @types/selenium-webdriver 4.35 lacks the command names for window rects, minimizing and new windows.
declare module 'selenium-webdriver/http/index.js' {
  import type { Agent } from 'node:http';
  import type { Command } from 'selenium-webdriver/lib/command.js';

  export class HttpClient {
    constructor(serverUrl: string, agent?: Agent);
  }

  export class Executor {
    constructor(client: HttpClient);
    /** The command's value (null for none); a server's error answer rejects with its WebDriverError. */
    execute(command: Command): Promise<unknown>;
  }
}

declare module 'selenium-webdriver/lib/capabilities.js' {
  export class Capabilities {
    constructor(other?: Record<string, unknown>);
    get(key: string): unknown;
  }
}

declare module 'selenium-webdriver/lib/command.js' {
  export class Command {
    constructor(name: string);
    setParameters(parameters: Record<string, unknown>): this;
  }

  export const Name: Readonly<
    Record<
      | 'GET'
      | 'EXECUTE_SCRIPT'
      | 'EXECUTE_ASYNC_SCRIPT'
      | 'SCREENSHOT'
      | 'SET_WINDOW_RECT'
      | 'MINIMIZE_WINDOW'
      | 'GET_CURRENT_WINDOW_HANDLE'
      | 'GET_WINDOW_HANDLES'
      | 'SWITCH_TO_NEW_WINDOW'
      | 'SWITCH_TO_WINDOW'
      | 'CLOSE'
      | 'QUIT',
      string
    >
  >;
}

declare module 'selenium-webdriver/lib/error.js' {
  /** A server's error answer; each W3C error code has a subclass. */
  export class WebDriverError extends Error {}
  /** The W3C error code of a WebDriverError (`unknown error` for one of no known code). */
  export function encodeError(error: unknown): { error: string; message: string };
}

declare module 'selenium-webdriver/lib/webdriver.js' {
  import type { Executor } from 'selenium-webdriver/http/index.js';
  import type { Capabilities } from 'selenium-webdriver/lib/capabilities.js';

  export class WebDriver {
    /** Sends the new-session request with `capabilities` as W3C `alwaysMatch`. */
    static createSession(executor: Executor, capabilities: Capabilities): WebDriver;
    getSession(): Promise<{ getId(): string; getCapabilities(): Capabilities }>;
  }
}
