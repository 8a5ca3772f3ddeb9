// Live odds widget: /widgets/odds?match=ID
//
// Talks to the gateway only, over the graphql-ws protocol
// ("graphql-transport-ws") on /graphql, with a small hand-written client so
// the page needs nothing from another host. Two subscriptions: complete
// snapshots (what to show) and changes (what just moved). The connection
// pill shows the worse of two states: the browser's socket to the gateway,
// and the gateway's feed from the upstream (the snapshot's `feed`).
//
// Beside the prices, the match itself: teams, score and clock, when ID is a
// World Cup V1 game. A third subscription, the live ticker (one shared poll
// in the gateway, whatever the number of widgets), keeps them current while
// the game is in progress; the matches list (the same cached upstream
// answer the ticker polls) gives them before kick-off and after full time.

const SNAPSHOTS = `subscription Snapshots($matchId: ID!) {
  oddsSnapshots(matchId: $matchId) {
    matchId timestamp receivedAt stale feed
    markets { marketId name suspended outcomes { name price } }
  }
}`;

const CHANGES = `subscription Changes($matchId: ID!) {
  oddsChanges(matchId: $matchId) {
    kind marketId marketName outcome previousPrice price timestamp afterReconnect
  }
}`;

const GAME = `homeTeam { name } awayTeam { name } homeScore awayScore minute statusGroup status { description }`;

const TICKER = `subscription Ticker {
  liveTicker { games { ref { nativeId } ${GAME} } }
}`;

const MATCHES = `query Matches {
  v1 { worldCup { matches { ref { nativeId } ${GAME} } } }
}`;

const matchId = new URLSearchParams(location.search).get('match');
const $ = (id) => document.getElementById(id);

/** Every market ever seen: one absent from the latest snapshot is closed (spec 3). */
const markets = new Map();
const history = [];
let socketState = 'connecting';
let feedState = 'CONNECTING';
let stale = false;
/** Whether the live ticker listed this game last time: when it drops out, the game is over (or not started). */
let inTicker = false;
let matchesAsked = 0;

function showState() {
  let state = 'live';
  let text = 'Live';
  if (socketState !== 'open') {
    state = socketState === 'connecting' ? 'connecting' : 'reconnecting';
    text = socketState === 'connecting' ? 'Connecting…' : 'Reconnecting to the gateway…';
  } else if (feedState === 'CONNECTING') {
    state = 'connecting';
    text = 'Waiting for odds…';
  } else if (feedState === 'RECONNECTING') {
    state = 'reconnecting';
    text = 'Reconnecting to the odds feed…';
  }
  const pill = $('connection');
  if (pill.dataset.state !== state) {
    history.push(state);
    document.body.dataset.stateHistory = history.join(' ');
  }
  pill.dataset.state = state;
  pill.textContent = text;
  document.body.classList.toggle('stale', stale);
}

function renderSnapshot(snapshot) {
  feedState = snapshot.feed;
  stale = snapshot.stale;
  const present = new Set();
  for (const market of snapshot.markets) {
    present.add(market.marketId);
    const previous = markets.get(market.marketId);
    markets.set(market.marketId, { ...market, status: market.suspended ? 'suspended' : 'open', previous });
  }
  for (const [id, market] of markets) {
    if (!present.has(id)) markets.set(id, { ...market, status: 'closed', previous: undefined });
  }
  const container = $('markets');
  container.replaceChildren(...[...markets.values()].map(renderMarket));
  $('updated').textContent =
    `Odds at ${new Date(snapshot.timestamp).toLocaleTimeString()}${snapshot.stale ? ' (may be out of date)' : ''}`;
  showState();
}

function renderMarket(market) {
  const section = document.createElement('section');
  section.className = 'market';
  section.dataset.market = market.marketId;
  section.dataset.status = market.status;
  const title = document.createElement('h3');
  const name = document.createElement('span');
  name.textContent = market.name ?? market.marketId;
  const status = document.createElement('span');
  status.className = 'status';
  status.textContent = market.status;
  title.append(name, status);
  const outcomes = document.createElement('div');
  outcomes.className = 'outcomes';
  for (const outcome of market.outcomes) {
    const row = document.createElement('span');
    row.className = 'outcome';
    const label = document.createElement('span');
    label.textContent = outcome.name;
    const price = document.createElement('span');
    price.className = 'price';
    price.dataset.outcome = outcome.name;
    price.textContent = outcome.price === null ? '–' : outcome.price.toFixed(2);
    const before = market.previous?.outcomes.find((o) => o.name === outcome.name)?.price;
    if (typeof before === 'number' && typeof outcome.price === 'number' && before !== outcome.price) {
      price.classList.add(outcome.price > before ? 'up' : 'down');
    }
    row.append(label, price);
    outcomes.append(row);
  }
  section.append(title, outcomes);
  return section;
}

/** Teams, score and clock; a game the gateway does not know leaves only the match ID in the title. */
function renderGame(game) {
  if (!game) return;
  $('scoreboard').hidden = false;
  $('home-team').textContent = game.homeTeam?.name ?? 'Home';
  $('away-team').textContent = game.awayTeam?.name ?? 'Away';
  const started = game.homeScore !== null && game.awayScore !== null;
  $('score').textContent = started ? `${game.homeScore} – ${game.awayScore}` : 'v';
  const description = game.status?.description;
  $('clock').textContent =
    game.statusGroup === 3 && description !== 'HT' && game.minute !== null ? `${game.minute}'` : (description ?? '');
  $('scoreboard').dataset.status = game.statusGroup === 3 ? 'live' : game.statusGroup === 4 ? 'finished' : 'scheduled';
}

function onTicker(ticker) {
  const game = ticker.games.find((g) => g.ref.nativeId === matchId);
  if (game) renderGame(game);
  else if (inTicker) askMatches();
  inTicker = game !== undefined;
}

/** One query over the socket: the game from the World Cup matches list. */
function askMatches() {
  if (currentSocket?.readyState !== WebSocket.OPEN) return;
  matchesAsked += 1;
  currentSocket.send(JSON.stringify({ id: `matches-${matchesAsked}`, type: 'subscribe', payload: { query: MATCHES } }));
}

function onMatches(data) {
  renderGame(data?.v1?.worldCup?.matches?.find((g) => g.ref.nativeId === matchId));
}

let currentSocket;

function renderChange(change) {
  const item = document.createElement('li');
  item.dataset.kind = change.kind;
  const what =
    change.kind === 'PRICE_MOVED'
      ? `${change.marketName ?? change.marketId} · ${change.outcome}: ${change.previousPrice ?? '–'} → ${change.price ?? '–'}`
      : `${change.marketName ?? change.marketId} ${change.kind.toLowerCase()}`;
  item.textContent = `${new Date(change.timestamp).toLocaleTimeString()} ${what}${change.afterReconnect ? ' (after reconnect)' : ''}`;
  const list = $('changes');
  list.prepend(item);
  while (list.children.length > 50) list.lastElementChild.remove();
}

/**
 * The graphql-ws protocol, client side: connection_init -> connection_ack,
 * then one `subscribe` per operation; `next` carries results; `ping` gets
 * `pong`. On any close, reconnect with capped doubling backoff and jitter,
 * and subscribe again: the gateway answers with the latest snapshot at once.
 */
function connect(attempt = 0) {
  socketState = attempt === 0 ? 'connecting' : 'reconnecting';
  showState();
  const url = `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/graphql`;
  const socket = new WebSocket(url, 'graphql-transport-ws');
  currentSocket = socket;
  let acknowledged = false;
  socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    switch (message.type) {
      case 'connection_ack':
        acknowledged = true;
        socketState = 'open';
        showState();
        socket.send(
          JSON.stringify({ id: 'snapshots', type: 'subscribe', payload: { query: SNAPSHOTS, variables: { matchId } } }),
        );
        socket.send(
          JSON.stringify({ id: 'changes', type: 'subscribe', payload: { query: CHANGES, variables: { matchId } } }),
        );
        socket.send(JSON.stringify({ id: 'ticker', type: 'subscribe', payload: { query: TICKER } }));
        askMatches();
        break;
      case 'ping':
        socket.send(JSON.stringify({ type: 'pong' }));
        break;
      case 'next':
        // The scoreboard is extra: a game it cannot find or a ticker it may not use leaves the prices alone.
        if (message.id === 'ticker') {
          if (message.payload.data?.liveTicker) onTicker(message.payload.data.liveTicker);
        } else if (message.id.startsWith('matches-')) onMatches(message.payload.data);
        else if (message.payload.errors) showError(message.payload.errors);
        else if (message.id === 'snapshots') renderSnapshot(message.payload.data.oddsSnapshots);
        else if (message.id === 'changes') renderChange(message.payload.data.oddsChanges);
        break;
      case 'error':
        if (message.id !== 'ticker' && !message.id.startsWith('matches-')) showError(message.payload);
        break;
    }
  };
  socket.onclose = () => {
    socketState = 'closed';
    showState();
    const next = acknowledged ? 1 : attempt + 1;
    const step = Math.min(10_000, 500 * 2 ** Math.min(next - 1, 5));
    setTimeout(() => connect(next), step / 2 + Math.random() * (step / 2));
  };
}

function showError(errors) {
  $('updated').textContent = `Error: ${errors.map((e) => e.message).join('; ')}`;
}

if (matchId === null || matchId === '') {
  $('connection').textContent = 'No match: add ?match=ID to the address';
  $('connection').dataset.state = 'reconnecting';
} else {
  $('match').textContent = `· match ${matchId}`;
  connect();
}
