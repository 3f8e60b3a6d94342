// A minimal MCP Apps host, for the browser test: the extension's own AppBridge renders the
// service's view in a sandboxed frame. The page cannot call /api/mcp itself (the service
// rightly refuses a foreign Origin), so every MCP request goes through `relayMcp`, which the
// test harness exposes and answers with an MCP client of its own. Bundled by the test with
// esbuild; browser code.
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

type Relay = (method: string, params: unknown) => Promise<any>;
declare global {
  interface Window {
    relayMcp: Relay;
    openedLinks: string[];
    showTool(name: string, args: Record<string, unknown>, theme: 'light' | 'dark'): Promise<void>;
    setTheme(theme: 'light' | 'dark'): void;
  }
}

let bridge: AppBridge | undefined;
window.openedLinks = [];

window.setTheme = (theme) => bridge?.setHostContext({ theme });

window.showTool = async (name, args, theme) => {
  const { tools } = await window.relayMcp('tools/list', {});
  const tool = tools.find((candidate: { name: string }) => candidate.name === name);
  const uri = tool?._meta?.ui?.resourceUri;
  if (!uri) throw new Error(`${name} links to no view`);
  const { contents } = await window.relayMcp('resources/read', { uri });
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = 'Quiz service view';
  frame.style.cssText = 'width: 100%; height: 860px; border: 1px solid #888; box-sizing: border-box;';
  document.getElementById('host')!.replaceChildren(frame);

  bridge = new AppBridge(
    null,
    { name: 'Test host', version: '1.0.0' },
    { openLinks: {}, serverTools: {} },
    { hostContext: { theme, displayMode: 'inline' } },
  );
  bridge.oncalltool = (params) => window.relayMcp('tools/call', params);
  bridge.onopenlink = async ({ url }) => {
    window.openedLinks.push(url);
    return {};
  };
  // A fixed frame as wide as the host's column: the view's own layout is what is tested.
  bridge.onsizechange = async () => ({});
  const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()));
  // Listen before the view loads: it starts its handshake as soon as its script runs.
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  frame.srcdoc = contents[0].text;
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(await window.relayMcp('tools/call', { name, arguments: args }));
};
