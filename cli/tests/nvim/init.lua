-- Loaded by run.sh: attach ptxguard's language server to the opened buffer, wait for its
-- diagnostics, ask for a hover on the first one, write everything to $PTXGUARD_OUT, quit.
-- Written for Neovim 0.7 (Debian 12) and later: vim.lsp.start_client, not vim.lsp.start.
local bin = os.getenv("PTXGUARD_BIN")
local out = os.getenv("PTXGUARD_OUT")

local function finish(result)
  local f = assert(io.open(out, "w"))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd("qall!")
end

local function lsp_data(d)
  return (d.user_data and d.user_data.lsp) or {}
end

vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local buf = vim.api.nvim_get_current_buf()
    local root = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf), ":p:h")
    local client_id = vim.lsp.start_client({
      name = "ptxguard",
      cmd = { bin, "server" },
      root_dir = root,
    })
    if not client_id then
      return finish({ error = "could not start " .. tostring(bin) })
    end
    vim.lsp.buf_attach_client(buf, client_id)
    local got = vim.wait(60000, function()
      return #vim.diagnostic.get(buf) > 0
    end, 50)
    local result = { diagnostics = {}, timed_out = not got }
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local lsp = lsp_data(d)
      table.insert(result.diagnostics, {
        lnum = d.lnum,
        col = d.col,
        end_col = d.end_col,
        severity = d.severity,
        source = d.source,
        code = d.code or lsp.code,
        message = d.message,
        range = lsp.range,
      })
    end
    local first = result.diagnostics[1]
    if first then
      -- Older Neovims keep no LSP range: convert the byte column back to UTF-16.
      local position = first.range and first.range.start
      if not position then
        local text = vim.api.nvim_buf_get_lines(buf, first.lnum, first.lnum + 1, false)[1] or ""
        local _, utf16 = vim.str_utfindex(text, first.col)
        position = { line = first.lnum, character = utf16 }
      end
      local params = {
        textDocument = { uri = vim.uri_from_bufnr(buf) },
        position = position,
      }
      local responses = vim.lsp.buf_request_sync(buf, "textDocument/hover", params, 20000) or {}
      for _, response in pairs(responses) do
        if response.result and response.result.contents then
          result.hover = response.result.contents.value
        end
      end
    end
    vim.lsp.stop_client(client_id)
    finish(result)
  end,
})
