// Page behaviour shared by the sandbox pages: login, token keeping, users fetching.
const TOKEN_KEY = 'loadlab.token';
const USER_KEY = 'loadlab.user';

function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

// A stored token the API refuses (expired, or signed by an earlier sandbox process whose random
// key is gone) is no session: drop it and ask for a fresh login instead of showing an error.
function endSession(reason) {
  sessionStorage.clear();
  location.assign(`/web/login.html?reason=${encodeURIComponent(reason)}`);
}

async function fetchUsers() {
  const headers = token() ? { Authorization: `Bearer ${token()}` } : {};
  const response = await fetch('/api/users', { headers });
  const body = await response.json();
  if (response.status === 401 && token()) {
    endSession('expired');
    throw new Error('session expired');
  }
  if (!response.ok) throw new Error(body.detail || `HTTP ${response.status}`);
  return body.users;
}

function renderUsers(table, users) {
  const rows = users.map((u) => {
    const tr = document.createElement('tr');
    for (const value of [u.id, u.name, u.email, u.role]) {
      const td = document.createElement('td');
      td.textContent = String(value);
      tr.append(td);
    }
    return tr;
  });
  table.querySelector('tbody').replaceChildren(...rows);
}

function showSignedIn() {
  const slot = document.querySelector('[data-testid="current-user"]');
  const user = JSON.parse(sessionStorage.getItem(USER_KEY) || 'null');
  if (slot) slot.textContent = user ? `${user.name} (${user.email})` : 'anonymous';
}

function setupLogin(form) {
  const error = document.querySelector('[data-testid="login-error"]');
  if (new URLSearchParams(location.search).get('reason') === 'expired') {
    error.textContent = 'Your session expired. Please sign in again.';
  }
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('[data-testid="login-submit"]');
    button.disabled = true;
    error.textContent = '';
    try {
      const response = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          email: form.querySelector('[data-testid="login-email"]').value,
          password: form.querySelector('[data-testid="login-password"]').value,
        }),
      });
      const body = await response.json();
      if (!response.ok) throw new Error(body.detail || `HTTP ${response.status}`);
      sessionStorage.setItem(TOKEN_KEY, body.token);
      sessionStorage.setItem(USER_KEY, JSON.stringify(body.user));
      location.assign('/web/dashboard.html');
    } catch (e) {
      error.textContent = `Login failed: ${e.message}`;
      button.disabled = false;
    }
  });
}

async function loadUsersInto(table, status) {
  try {
    const users = await fetchUsers();
    renderUsers(table, users);
    if (status) status.textContent = `${users.length} users`;
    const count = document.querySelector('[data-testid="user-count"]');
    if (count) count.textContent = String(users.length);
    return users;
  } catch (e) {
    if (status) status.textContent = `Could not load users: ${e.message}`;
    return [];
  }
}

document.addEventListener('DOMContentLoaded', () => {
  showSignedIn();
  const form = document.querySelector('[data-testid="login-form"]');
  if (form) setupLogin(form);
  const table = document.querySelector('[data-testid="users-table"]');
  const status = document.querySelector('[data-testid="users-status"]');
  if (table) void loadUsersInto(table, status);
  const button = document.querySelector('[data-testid="fetch-users-btn"]');
  const result = document.querySelector('[data-testid="api-result"]');
  if (button && result) {
    button.addEventListener('click', async () => {
      try {
        result.textContent = JSON.stringify(await fetchUsers(), null, 2);
      } catch (e) {
        result.textContent = e.message;
      }
    });
  }
  const user = JSON.parse(sessionStorage.getItem(USER_KEY) || 'null');
  const profile = document.querySelector('[data-testid="settings-form"]');
  if (profile && user) {
    profile.querySelector('[name="display"]').value = user.name;
    profile.querySelector('[name="email"]').value = user.email;
    profile.querySelector('[name="role"]').value = user.role;
  }
  const logout = document.querySelector('[data-testid="logout"]');
  if (logout) {
    logout.addEventListener('click', () => {
      sessionStorage.clear();
      location.assign('/web/login.html');
    });
  }
});
