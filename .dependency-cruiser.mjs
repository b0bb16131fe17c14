// The layering rules `npm run lint` checks (README, "How it is built"), one rule each. They live
// here rather than in biome.json because a Biome override replaces noRestrictedImports' options
// instead of adding to them, so a rule shared by several layers had to be pasted into each.
// Paths are relative to the repository; imports of types count like any other.

/** Our own code: a dependency that resolves to a file of the repository. */
const ours = { dependencyTypes: ['local'] };

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'protocol-imports-nothing',
      comment: 'src/protocol is the wire contract: it imports nothing of ours.',
      severity: 'error',
      from: { path: '^src/protocol/' },
      to: { ...ours, pathNot: '^src/protocol/' },
    },
    {
      name: 'comparator-imports-only-protocol',
      comment: 'src/comparator imports only src/protocol.',
      severity: 'error',
      from: { path: '^src/comparator/' },
      to: { ...ours, pathNot: '^src/(comparator|protocol)/' },
    },
    {
      name: 'shared-leaves-import-only-protocol',
      comment: 'src/page, src/system, src/worker-contract and src/fonts are shared leaves: they import only src/protocol.',
      severity: 'error',
      from: { path: '^src/(page|system|worker-contract|fonts)/' },
      to: { ...ours, pathNot: ['^src/protocol/', '^src/$1/'] },
    },
    {
      name: 'workers-below-coordinator',
      comment: 'src/workers never imports the coordinator, nor anything built on it.',
      severity: 'error',
      from: { path: '^src/workers/' },
      to: { path: '^src/(coordinator|api|campaign|reduce|report|queue|tools)/' },
    },
    {
      name: 'coordinator-through-worker-contract',
      comment: 'src/coordinator reaches the workers only through src/worker-contract, and never imports what is built on it.',
      severity: 'error',
      from: { path: '^src/coordinator/' },
      to: { path: '^src/(workers|api|campaign|reduce|report|queue|tools)/' },
    },
    {
      name: 'tools-above-coordinator',
      comment: 'Only the coordinator talks to the workers (through src/worker-contract).',
      severity: 'error',
      from: { path: '^src/(api|campaign|reduce|report|tools)/' },
      to: { path: '^src/workers/' },
    },
    {
      name: 'queue-through-an-oracle',
      comment:
        'src/queue reaches the engines only through an oracle (a stdio oracle it starts, or OracleService), never the worker threads or their contract.',
      severity: 'error',
      from: { path: '^src/queue/' },
      to: { path: '^src/(workers|worker-contract)/' },
    },
    {
      name: 'cli-on-top',
      comment: 'src/cli sits on top: nothing else in src imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'generator-imports-only-protocol',
      comment:
        "src/campaign/generator makes cases from a seed alone: it imports only src/protocol, never the campaign's journal, corpus readers or loop.",
      severity: 'error',
      from: { path: '^src/campaign/generator/' },
      to: { ...ours, pathNot: ['^src/campaign/generator/', '^src/protocol/'] },
    },
    {
      name: 'candidate-reference-imports-only-protocol',
      comment:
        'src/candidate-reference (the reference candidates, a program of their own) imports only src/protocol, and src/fonts for the square font.',
      severity: 'error',
      from: { path: '^src/candidate-reference/' },
      to: { ...ours, pathNot: '^src/(candidate-reference|protocol|fonts)/' },
    },
    {
      name: 'candidate-client-imports-protocol-comparator-system',
      comment:
        "src/candidate-client (the oracle's side of the candidate protocol) imports only src/protocol, src/comparator and src/system.",
      severity: 'error',
      from: { path: '^src/candidate-client/' },
      to: { ...ours, pathNot: '^src/(candidate-client|protocol|comparator|system)/' },
    },
    {
      name: 'candidates-start-in-one-place',
      comment:
        'A candidate process is started only through src/tools/candidate-session.ts, which every tool uses (campaign, --emit, reduce): outside src/candidate-client, nothing else in src imports the process supervisor.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/candidate-client/', '^src/tools/candidate-session\\.ts$'] },
      to: { path: '^src/candidate-client/process-source\\.ts$' },
    },
    {
      name: 'candidate-process-stays-lean',
      comment:
        "`browser-oracle candidate` (src/cli/candidate-program.ts) reaches only the reference candidates, src/protocol, src/fonts, src/system and its own CLI files: every campaign with a reference candidate starts it, again after each crash, and the other commands' modules cost it most of a second of CPU.",
      severity: 'error',
      from: { path: '^src/cli/candidate-program\\.ts$' },
      to: {
        path: '^src/',
        reachable: true,
        pathNot: ['^src/(candidate-reference|protocol|fonts|system)/', '^src/cli/(candidate-program|candidate-command|base-program)\\.ts$'],
      },
    },
    {
      name: 'json-text-only-in-protocol',
      comment: 'JsonText is made only by the encoders in src/protocol; elsewhere, use the type wire.ts exports.',
      severity: 'error',
      from: { pathNot: '^src/protocol/' },
      to: { path: '^src/protocol/json-text\\.ts$' },
    },
    {
      name: 'engine-folders-through-index',
      comment:
        "Only src/workers/engines/index.ts reaches into an engine's adapter folder (src/workers/engines/<engine>/); the rest of src goes through the engine interface. Tests and benches of an adapter may import it directly.",
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/workers/engines/index\\.ts$', '^src/workers/engines/[^/]+/'] },
      to: { path: '^src/workers/engines/[^/]+/' },
    },
    {
      name: 'engine-folders-apart',
      comment: "An engine's adapter folder imports no other engine's: what two adapters share lives beside them in src/workers/engines.",
      severity: 'error',
      from: { path: '^src/workers/engines/([^/]+)/' },
      to: { path: '^src/workers/engines/[^/]+/', pathNot: '^src/workers/engines/$1/' },
    },
    {
      name: 'workers-layers-point-down',
      comment:
        "Inside src/workers, the adapters (engines/, engine.ts) and what the programs' answers mean (page-answers.ts) sit below the engine host (host/) and the ops' tasks (tasks/, worker-context.ts, case-worker.ts): they never import them.",
      severity: 'error',
      from: { path: '^src/workers/(engines/|engine\\.ts$|page-answers\\.ts$)' },
      to: { path: '^src/workers/(host/|tasks/|worker-context\\.ts$|case-worker\\.ts$)' },
    },
    {
      name: 'jsdom-only-in-dom-tests',
      comment:
        "jsdom's types declare the DOM globally: only a *.dom.test.ts file (tsconfig.dom-tests.json) may import it, so that Node code keeps failing to compile on `document`.",
      severity: 'error',
      from: { pathNot: '\\.dom\\.test\\.ts$' },
      to: { path: '(^|/)node_modules/(jsdom|@types/jsdom)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // Resolve packages as Node does for an ESM import, so every import resolves.
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'node', 'default'] },
  },
};
